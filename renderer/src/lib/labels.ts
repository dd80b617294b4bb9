/**
 * Japanese labels for values the server stores as keys (audit categories, integration rules and log kinds,
 * compliance controls) and for periods (YYMM, YYYY-MM). A value without a label is shown as it is stored,
 * so nothing typed by a person is ever hidden.
 */

export const AUDIT_CATEGORIES: Record<string, string> = {
  audit: '監査',
  ops: '業務',
  system: 'システム',
  access: 'アクセス',
  security: 'セキュリティ',
};

/** 区分 of an audit-log row: 監査 / 業務 / システム / アクセス / セキュリティ, else the stored text. */
export const auditCategoryLabel = (cat: string): string => AUDIT_CATEGORIES[cat.trim().toLowerCase()] ?? cat;

/** A 区分 typed in the form: a Japanese label is stored as its key, so the list and the report agree. */
export function auditCategoryKey(input: string): string {
  const v = input.trim();
  const hit = Object.entries(AUDIT_CATEGORIES).find(([, label]) => label === v);
  return hit ? hit[0] : v;
}

export const INTEGRATION_RULES: Record<string, string> = {
  'r-ship': '出荷時に顧客へ通知',
  'r-inv': '請求書の自動発行',
  'r-lost': '紛失時のリモートロック',
  'r-ade': 'ADE自動登録',
  'r-sla': 'SLA超過アラート',
  'r-pay': '入金消込',
};

/** A rule the product does not know (saved by an older version or another client). */
export const integrationRuleLabel = (id: string): string => INTEGRATION_RULES[id] ?? 'その他の自動化ルール';

const LOG_KINDS: Record<string, string> = {
  sync: '同期',
  webhook: 'Webhook通知',
  notify: '通知',
  import: '取り込み',
  export: '書き出し',
  push: '送信',
  pull: '受信',
  auth: '認証',
};
export const integrationKindLabel = (kind: string): string => LOG_KINDS[kind.trim().toLowerCase()] ?? kind;

/**
 * Names of the controls of each framework, in the order the server stores their checkboxes.
 * ISMS follows the ISO/IEC 27001 Annex A themes, プライバシーマーク JIS Q 15001, SOC 2 the common criteria
 * CC1–CC9, 個人情報保護法 the safety-management measures of the PPC guidelines.
 */
export const CONTROL_NAMES: Record<string, readonly string[]> = {
  isms: [
    '情報セキュリティ方針の策定と周知',
    '情報資産の台帳管理',
    'アクセス権の付与と定期見直し',
    '暗号化と鍵管理',
    '作業エリアの入退室管理',
    'マルウェア対策とパッチ適用',
    'ログの取得と監視',
    'バックアップと復旧テスト',
    '委託先（供給者）の管理',
    '情報セキュリティインシデント対応',
    '事業継続計画（BCP）',
    '内部監査とマネジメントレビュー',
  ],
  pmark: [
    '個人情報保護方針の策定と公表',
    '個人情報の特定と管理台帳',
    'リスクアセスメントと対策',
    '従業者への教育',
    '委託先の選定と監督',
    '開示等の請求への対応',
    '苦情・相談窓口の設置',
    '内部監査と代表者による見直し',
  ],
  soc2: [
    'CC1 統制環境',
    'CC2 情報とコミュニケーション',
    'CC3 リスク評価',
    'CC4 モニタリング活動',
    'CC5 統制活動',
    'CC6 論理的・物理的アクセス制御',
    'CC7 システム運用',
    'CC8 変更管理',
    'CC9 リスク軽減（ベンダー管理）',
  ],
  appi: [
    '基本方針の策定',
    '個人データの取扱規程',
    '組織的安全管理措置',
    '人的安全管理措置',
    '物理的安全管理措置',
    '技術的安全管理措置',
    '外的環境の把握',
    '漏えい等の報告・本人通知の体制',
  ],
};

/** The i-th control (0-based) of a framework; controls added past the named ones are numbered. */
export function controlName(framework: string, i: number): string {
  const names = CONTROL_NAMES[framework] ?? [];
  return names[i] ?? `追加の管理策 ${i + 1 - names.length}`;
}

/**
 * A period as people write it: '2611' (YYMM) or '2026-11' → 2026年11月, '2026-11-23' → 2026年11月23日.
 * Anything else is returned unchanged.
 */
export function periodLabel(period: string | null | undefined): string {
  const v = (period ?? '').trim();
  let m = /^(\d{2})(0[1-9]|1[0-2])$/.exec(v);
  if (m) return `20${m[1]}年${Number(m[2])}月`;
  m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(v);
  if (m) return `${m[1]}年${Number(m[2])}月`;
  m = /^(\d{4})-(0[1-9]|1[0-2])-(\d{2})$/.exec(v);
  if (m) return `${m[1]}年${Number(m[2])}月${Number(m[3])}日`;
  return v;
}

/** A span of days: 2026年11月23日〜29日, 2026年11月30日〜12月6日, 2026年12月28日〜2027年1月3日. */
export function dateRangeLabel(from: string, to: string): string {
  const a = /^(\d{4})-(\d{2})-(\d{2})$/.exec(from);
  const b = /^(\d{4})-(\d{2})-(\d{2})$/.exec(to);
  if (!a || !b) return `${from}〜${to}`;
  const end = a[1] !== b[1] ? `${b[1]}年${Number(b[2])}月${Number(b[3])}日` : a[2] !== b[2] ? `${Number(b[2])}月${Number(b[3])}日` : `${Number(b[3])}日`;
  return `${periodLabel(from)}〜${end}`;
}
