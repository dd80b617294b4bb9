/** The failure envelope and the generic record of back-office lists. */
import { z } from 'zod';
import { optStr } from '../primitives';

/** A row of any list the UI shows generically (back-office screens). */
export const AnyRecord = z.record(z.string(), z.unknown());
export type AnyRecord = z.infer<typeof AnyRecord>;

/** Failure envelope. */
export const ErrorBody = z.looseObject({
  ok: z.literal(false),
  error: z.string(),
  code: optStr,
  message: optStr,
  issues: z.unknown().optional(),
  errors: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;


/**
 * Error codes of the contract (the failure body's `error`, or its `code`) the UI explains in its own words,
 * whatever text the server sends beside them.
 */
export const ERROR_TEXT = {
  portal_link_invalid: 'このリンクは無効です。期限切れか、取り消された可能性があります。',
  portal_not_found: 'このポータルは見つかりません。',
  portal_unpublished: 'このポータルは現在公開されていません。',
  message_required: '本文を入力してください。',
  ticket_not_created: 'チケットを作成できませんでした。時間をおいて再度お試しください。',
  quote_inconsistent: '見積の金額が一致しません。明細を確認してください。',
  customer_required: '顧客を選択してください。',
  customer_not_found: '指定の顧客が見つかりません。',
  unauthorized: '認証が必要です。もう一度サインインしてください。',
  'no draft': '適用できる下書きがありません。',
  'unknown snapshot': '指定の履歴が見つかりません。',
  'alert not found': 'このアラートは見つかりません（削除された可能性があります）。',
  'device not found': 'この端末は台帳にありません。',
  'job not found': 'この案件カードは見つかりません。',
  'ticket not found': 'このチケットは見つかりません。',
  'device already exists': 'このIMEIはすでに台帳に登録されています。',
  'qty required': '台数を1〜1000で指定してください。',
} as const;
export type ApiErrorCode = keyof typeof ERROR_TEXT;

/** The UI's text for an error code of the contract, if it has one. */
export function errorText(code: string): string | undefined {
  return Object.hasOwn(ERROR_TEXT, code) ? ERROR_TEXT[code as ApiErrorCode] : undefined;
}
