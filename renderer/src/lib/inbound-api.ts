import type { z } from 'zod';
import { ApiError } from '../../../shared/api/client';
import { inboundResponses, type InboundMapping, type InboundRowReason } from '../../../shared/api/contracts/inbound';
import { api } from '../api';

/** The inbound list routes, typed by their contracts (shared/api/contracts/inbound.ts). */
const e = encodeURIComponent;
const parsed = <T extends z.ZodType>(schema: T) => (body: unknown): z.infer<T> => {
  const r = schema.safeParse(body);
  if (!r.success) throw new ApiError('GET', '/api/inbound', 200, 'bad_response', body as Record<string, unknown>);
  return r.data;
};

export const inboundApi = {
  list: () => api.raw.get('/api/inbound').then(parsed(inboundResponses.list)),
  detail: (id: string) => api.raw.get(`/api/inbound/${e(id)}`).then(parsed(inboundResponses.detail)),
  scan: (id: string, imei: string, confirm = false) => api.raw.post(`/api/inbound/${e(id)}/scan`, { imei, confirm }).then(parsed(inboundResponses.scan)),
  close: (id: string) => api.raw.post(`/api/inbound/${e(id)}/close`, {}).then(parsed(inboundResponses.close)),
  remove: (id: string) => api.raw.post(`/api/inbound/${e(id)}/delete`, {}).then(parsed(inboundResponses.remove)),
  reportUrl: (id: string, kind: 'csv' | 'pdf') => `/api/inbound/${e(id)}/report.${kind}`,
};

export type InboundPreview = z.infer<typeof inboundResponses.preview>;
export type InboundCreated = z.infer<typeof inboundResponses.create>;

export const REASON_LABEL: Record<InboundRowReason, string> = {
  missing: 'IMEIが空です',
  not_15_digits: 'IMEIが15桁の数字ではありません',
  check_digit: 'チェックディジットが一致しません',
  duplicate: 'ファイル内で重複しています',
};

/**
 * POST a file route with upload progress (fetch reports none): `onProgress` gets 0..1 as the body is sent.
 * Answers the parsed success body, or throws the same ApiError as the typed client.
 */
export function postWithProgress<T extends z.ZodType>(path: string, body: unknown, schema: T, onProgress: (f: number) => void): Promise<z.infer<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) onProgress(ev.loaded / ev.total);
    };
    xhr.onerror = () => reject(new ApiError('POST', path, 0, 'network'));
    xhr.onload = () => {
      let rec: Record<string, unknown> | null = null;
      try {
        rec = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        rec = null;
      }
      if (xhr.status !== 200 || !rec || rec.ok !== true) {
        const error = rec && typeof rec.error === 'string' ? rec.error : `http_${xhr.status}`;
        reject(new ApiError('POST', path, xhr.status, error, rec));
        return;
      }
      const r = schema.safeParse(rec);
      if (r.success) resolve(r.data);
      else reject(new ApiError('POST', path, xhr.status, 'bad_response', rec));
    };
    xhr.send(JSON.stringify(body));
  });
}

/** A file as base64 (without the data: prefix), reporting 0..1 while it is read. */
export function readAsBase64(file: File, onProgress: (f: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (ev) => {
      if (ev.lengthComputable) onProgress(ev.loaded / ev.total);
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

export type { InboundMapping };
