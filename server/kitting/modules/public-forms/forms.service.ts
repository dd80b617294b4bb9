import type { Request } from 'express';
import { z } from 'zod';
import { clip } from '../../../../shared/fields';
import type { AppContext } from '../../../core/context';
import { badRequest } from '../../../core/errors';
import { hitLimit } from '../../../core/security/limits';
import { randomKey } from '../../../core/security/platform';
import type { Doc, Tx } from '../../../core/store/types';

export const LEADS = 'leads';
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Optional string input clipped to n (non-strings read as empty). */
export const str = (n: number) => z.unknown().optional().transform((v) => (typeof v === 'string' || typeof v === 'number' ? clip(String(v).trim(), n) : ''));

export function checkEmail(email: string): void {
  if (email && !EMAIL_RE.test(email)) throw badRequest('invalid email', { message: 'メールアドレスの形式が正しくありません' });
}

export function formLimit(app: AppContext, req: Request): void {
  hitLimit(app, 'publicForm', req.ip);
}

export interface LeadInput {
  name: string;
  email: string;
  company: string;
  phone?: string;
  message?: string;
  source?: string;
  tenant?: string;
  status?: string;
}

export async function putLead(tx: Tx, l: LeadInput): Promise<Doc> {
  const id = randomKey('L-', 3);
  return tx.put(LEADS, id, {
    id, name: l.name, email: l.email, company: l.company, phone: l.phone ?? '', message: l.message ?? '',
    source: l.source || 'web', tenant: l.tenant ?? '', status: l.status ?? 'new', notes: '', created: Date.now(),
  });
}

export const newestFirst = (a: Doc, b: Doc) => Number(b.created ?? 0) - Number(a.created ?? 0);
