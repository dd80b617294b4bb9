import { describe, expect, it } from 'vitest';
import { ApiError, describeError, plainMessage } from '../../../shared/api/client';
import { auditCategoryKey, auditCategoryLabel, controlName, CONTROL_NAMES, dateRangeLabel, integrationKindLabel, integrationRuleLabel, periodLabel } from './labels';

describe('labels shown instead of stored keys', () => {
  it('audit-log 区分 in Japanese, typed labels stored as the key, unknown text as typed', () => {
    expect(['access', 'system', 'audit', 'ops', 'security'].map(auditCategoryLabel)).toEqual(['アクセス', 'システム', '監査', '業務', 'セキュリティ']);
    expect(auditCategoryLabel('点検')).toBe('点検');
    expect(auditCategoryKey('業務')).toBe('ops');
    expect(auditCategoryKey(' 監査 ')).toBe('audit');
    expect(auditCategoryKey('点検')).toBe('点検');
  });

  it('integration rules and log kinds in Japanese, never an id such as r-ship', () => {
    expect(integrationRuleLabel('r-ship')).toBe('出荷時に顧客へ通知');
    expect(integrationRuleLabel('r-custom')).not.toContain('r-custom');
    expect(integrationKindLabel('sync')).toBe('同期');
  });

  it('compliance controls carry their names, controls added past them are numbered', () => {
    expect(controlName('isms', 0)).toBe('情報セキュリティ方針の策定と周知');
    expect(controlName('soc2', 7)).toBe('CC8 変更管理');
    expect(controlName('appi', 3)).toBe('人的安全管理措置');
    expect(controlName('pmark', CONTROL_NAMES.pmark!.length)).toBe('追加の管理策 1');
    for (const [k, names] of Object.entries(CONTROL_NAMES)) {
      expect(new Set(names).size, k).toBe(names.length);
      expect(names.some((n) => /^管理策\s*\d/.test(n)), k).toBe(false);
    }
  });

  it('periods as people write them', () => {
    expect(periodLabel('2611')).toBe('2026年11月');
    expect(periodLabel('2601')).toBe('2026年1月');
    expect(periodLabel('2026-11')).toBe('2026年11月');
    expect(periodLabel('2026-11-03')).toBe('2026年11月3日');
    expect(periodLabel('2613')).toBe('2613');
    expect(periodLabel(undefined)).toBe('');
    expect(dateRangeLabel('2026-11-23', '2026-11-29')).toBe('2026年11月23日〜29日');
    expect(dateRangeLabel('2026-11-28', '2026-12-04')).toBe('2026年11月28日〜12月4日');
    expect(dateRangeLabel('2026-12-28', '2027-01-03')).toBe('2026年12月28日〜2027年1月3日');
  });
});

describe('error texts without field keys', () => {
  it('drops the key beside a Japanese field name, keeps everything else', () => {
    expect(plainMessage('金額(amount)は必須です')).toBe('金額は必須です');
    expect(plainMessage('日付(date)は YYYY-MM-DD 形式で指定してください')).toBe('日付は YYYY-MM-DD 形式で指定してください');
    expect(plainMessage('追加または外す端末（add）を指定')).toBe('追加または外す端末を指定');
    expect(plainMessage('controls を真偽値(true/false)の配列で指定してください')).toBe('controls を真偽値(true/false)の配列で指定してください');
    expect(plainMessage('iPhone 16 (128GB)')).toBe('iPhone 16 (128GB)');
  });

  it('describeError shows the server message without the key', () => {
    const err = new ApiError('POST', '/api/invoice', 400, 'invalid amount', { message: '金額(amount)は必須です' });
    expect(describeError(err)).toBe('金額は必須です');
  });
});
