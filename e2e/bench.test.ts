import { describe, expect, it } from 'vitest';
import { generateImei } from '../shared/imei';
import { scanKeys, shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

const t = e2eSession();
const { api, go } = t;

describe('bench window', () => {
  it('home shows today’s ops, alerts and key figures; acknowledging an alert sticks', async () => {
    const { page } = t.b;
    await go('/');
    await page.getByText('本日の作業予定').waitFor();
    await page.getByText('Pixel 8a 検証機 入荷確認').waitFor();
    await page.getByText('SHP-1004 日新産業建設株式会社 出荷予定日超過').waitFor();
    // figures carry their period: "2026年11月のキッティング", not 今月
    const { month } = await api<{ month: string }>('/api/metrics/overview');
    const label = `20${month.slice(0, 2)}年${Number(month.slice(2))}月`;
    await page.getByText(`${label}のキッティング`).waitFor();
    expect(await page.getByTestId('figures-period').textContent()).toContain(`集計期間: ${label}`);
    await shot(page, '01-home');
    await page.getByRole('button', { name: '担当者に確認' }).first().click();
    await page.getByText('担当者へ確認依頼を送信しました').waitFor();
    const { alerts } = await api<{ alerts: { id: string; ack: boolean }[] }>('/api/alerts');
    expect(alerts.find((a) => a.id === 'al-ship-1004')?.ack).toBe(true);
  });

  it('scanning a known IMEI (full-width, Enter suffix) opens the device and saves an edit', async () => {
    const { page } = t.b;
    await go('/ledger');
    await page.getByTestId('ledger-list').waitFor();
    // The scan field has focus without a click: type like a keyboard-wedge scanner.
    await page.keyboard.type('３５３７９５０８９７５２５２９');
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('device-editor');
    await editor.getByText('353795089752529').waitFor();
    await editor.getByText('iPhone 14').waitFor();
    await page.locator('#ed-loc').fill('棚A-01');
    await page.locator('#ed-status').selectOption('保管中');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByText('353795089752529 を保存しました').waitFor();
    const { devices } = await api<{ devices: { imei: string; loc: string; status: string; chip: string }[] }>('/api/devices');
    const d = devices.find((x) => x.imei === '353795089752529');
    expect(d).toMatchObject({ loc: '棚A-01', status: '保管中', chip: 'c-blue' });
    await shot(page, '02-ledger');
  });

  it('rejects a scan with a wrong check digit and warns about kana input', async () => {
    const { page } = t.b;
    await page.locator('#scan').focus();
    await page.keyboard.type('353795089752528');
    await page.keyboard.press('Tab');
    await page.getByTestId('scan-msg').getByText('チェックディジット').waitFor();
    await page.locator('#scan').fill('さんごさん');
    await page.getByTestId('scan-msg').getByText('IME').waitFor();
    await page.locator('#scan').fill('');
  });

  it('scanning unknown IMEIs opens registration with focus in it; later scans wait in its queue; Enter registers', async () => {
    const { page } = t.b;
    const first = generateImei();
    const second = generateImei();
    await page.locator('#scan').focus();
    await scanKeys(page, first);
    const dialog = page.getByRole('dialog', { name: '未登録の端末を登録' });
    await dialog.getByTestId('register-imei').getByText(first).waitFor();
    // Focus is in the dialog (not on the scan field behind it): type the model straight away.
    await page.keyboard.type('iPad Air');
    // A scan while the dialog is open is queued, not swapped in.
    await scanKeys(page, second);
    await dialog.getByText('ほか 1件のスキャンが待機中').waitFor();
    expect(await page.locator('#rg-model').inputValue()).toBe('iPad Air');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ABC物流株式会社');
    await page.keyboard.press('Tab');
    await page.locator('#rg-mdm').selectOption('Jamf Pro');
    await page.locator('#rg-loc').focus();
    await page.keyboard.type('入荷棚1');
    await page.keyboard.press('Enter');
    // The next queued IMEI comes up with the values just chosen, shown (not silently applied).
    await dialog.getByTestId('register-imei').getByText(second).waitFor();
    expect(await page.locator('#rg-model').inputValue()).toBe('iPad Air');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('device-editor').getByText(second).waitFor();
    await page.getByTestId('scan-msg').getByText(`${second} を登録しました`).waitFor();
    const { devices } = await api<{ devices: { imei: string; model: string; loc: string; cust: string; mdm: string }[] }>('/api/devices');
    for (const imei of [first, second]) expect(devices.find((x) => x.imei === imei)).toMatchObject({ model: 'iPad Air', loc: '入荷棚1', cust: 'ABC物流株式会社', mdm: 'Jamf Pro' });
  }, 60_000);

  it('bulk registers devices with progress', async () => {
    const { page } = t.b;
    const before = (await api<{ count: number }>('/api/devices')).count;
    await page.getByRole('button', { name: '一括登録' }).click();
    await page.locator('#rg-qty').fill('150');
    await page.locator('#rg-model').fill('iPhone 15');
    await page.locator('#rg-cust').fill('社内検証機');
    await page.locator('#rg-mdm').selectOption('Intune');
    await page.getByTestId('register-submit').click();
    await page.getByText('150台を一括登録しました').waitFor();
    expect((await api<{ count: number }>('/api/devices')).count).toBe(before + 150);
    await page.getByTestId('ledger-count').getByText(`${(before + 150).toLocaleString()} 台`).waitFor();
  });

  it('moves a job card with the keyboard and by drag', async () => {
    const { page } = t.b;
    await go('/jobs');
    const card = page.locator('.col[data-stage="0"] .card').first();
    const id = await card.getAttribute('data-job');
    expect(id).toBeTruthy();
    await card.focus();
    await page.keyboard.press('ArrowRight');
    await page.locator(`.col[data-stage="1"] [data-job="${id}"]`).waitFor();
    await expect.poll(async () => (await api<{ jobs: { id: string; s: number }[] }>('/api/jobs')).jobs.find((j) => j.id === id)?.s).toBe(1);
    await page.locator(`[data-job="${id}"]`).dragTo(page.locator('.col[data-stage="3"]'));
    await page.locator(`.col[data-stage="3"] [data-job="${id}"]`).waitFor();
    await expect.poll(async () => (await api<{ jobs: { id: string; s: number }[] }>('/api/jobs')).jobs.find((j) => j.id === id)?.s).toBe(3);
    await shot(page, '03-jobs');
  });

  it('creates and deletes a job card (delete asks first)', async () => {
    const { page } = t.b;
    await page.getByRole('button', { name: '＋ 新規案件' }).click();
    await page.locator('#jb-t').fill('E2E テスト案件 iPhone 16 ×5台');
    await page.locator('#jb-c').fill('株式会社テスト');
    await page.getByTestId('job-save').click();
    const card = page.locator('.card', { hasText: 'E2E テスト案件' });
    await card.waitFor();
    await card.focus();
    await page.keyboard.press('Delete');
    await page.getByRole('dialog', { name: '確認' }).getByRole('button', { name: '削除する' }).click();
    await card.waitFor({ state: 'detached' });
    const { jobs } = await api<{ jobs: { t: string }[] }>('/api/jobs');
    expect(jobs.some((j) => j.t.startsWith('E2E テスト案件'))).toBe(false);
  });

  it('issues an erasure certificate from scanned devices and serves its PDF', async () => {
    const { page } = t.b;
    await go('/certs');
    await page.locator('#scan').waitFor();
    for (const imei of ['353795089752529', '356143920693759']) {
      await page.locator('#scan').fill(imei);
      await page.locator('#scan').press('Enter');
    }
    await page.getByTestId('cert-lines').locator('tbody tr').nth(1).waitFor();
    await page.locator('#ct-cust').fill('株式会社山下電設');
    await page.locator('#ct-method').selectOption('clear');
    await page.locator('#ct-operator').fill('佐藤 健一');
    await page.getByTestId('cert-issue').click();
    await page.getByRole('dialog', { name: '確認' }).getByRole('button', { name: '発行する' }).click();
    const issued = page.getByTestId('cert-issued');
    await issued.waitFor();
    const no = /KIT-ERZ-\d{4}-\d{4}/.exec(await issued.innerText())?.[0];
    expect(no).toBeTruthy();
    const pdf = await t.b.context.request.get(`${t.server.url}/api/cert/${no}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 4).toString()).toBe('%PDF');
    const { cert } = await api<{ cert: { count: number; methodKey: string; devices: { id: string }[] } }>(`/api/cert/${no}`);
    expect(cert).toMatchObject({ count: 2, methodKey: 'clear' });
    expect(cert.devices.map((d) => d.id)).toEqual(['353795089752529', '356143920693759']);
    await shot(page, '04-certs');
  });

  it('edits a label template with a live preview and saves it', async () => {
    const { page } = t.b;
    await go('/labels');
    const preview = page.getByTestId('label-preview');
    await preview.waitFor();
    // the preview stays empty until a device is chosen, then shows the server's label for it
    await page.getByRole('textbox', { name: 'プレビュー端末のIMEI' }).fill('353795089752529');
    await page.locator('[data-testid="label-preview"][data-state="ready"]').waitFor();
    await page.locator('#lb-name').fill('出荷ラベル L');
    await page.getByLabel('L（100×60mm）').check();
    await expect.poll(async () => (await preview.locator('svg').first().getAttribute('width')) ?? '').toBe('100mm');
    await page.getByLabel('QRコード').uncheck();
    // both at once: while the server renders the new label the preview is briefly empty (no QR, and no barcode yet)
    await expect.poll(async () => [await preview.locator('svg#qr').count(), await preview.locator('svg#barcode').count()]).toEqual([0, 1]);
    await page.getByTestId('label-save').click();
    await page.getByText('テンプレートを保存しました').waitFor();
    const { templates } = await api<{ templates: { name: string; size: string; fields: Record<string, boolean> }[] }>('/api/labels/templates');
    expect(templates.find((t) => t.name === '出荷ラベル L')).toMatchObject({ size: 'l', fields: { qr: false, barcode: true } });
    await shot(page, '05-labels');
  });

  it('builds a quote and shows server-computed totals', async () => {
    const { page } = t.b;
    await go('/quotes');
    await page.getByLabel('顧客', { exact: true }).selectOption({ index: 1 });
    const totals = page.getByTestId('quote-totals');
    await page.getByRole('button', { name: '＋ 行を追加' }).first().click();
    await page.getByLabel('項目').first().fill('初期設定作業');
    await page.getByLabel('数量').first().fill('10');
    await page.getByLabel('単価').first().fill('3000');
    await totals.getByText('¥30,000').first().waitFor();
    await totals.getByText('¥3,000').first().waitFor();
    await totals.getByText('¥33,000').first().waitFor();
    await page.getByTestId('quote-save').click();
    await page.getByText(/見積 Q-.* を保存しました/).waitFor();
    const { quotes } = await api<{ quotes: { totals: { ini: number; iniTotal: number } }[] }>('/api/quotes');
    expect(quotes[0]?.totals).toMatchObject({ ini: 30000, iniTotal: 33000 });
    await shot(page, '06-quotes');
  });

  it('every other screen renders content or a Japanese error, never a blank page', async () => {
    const { page } = t.b;
    for (const [hash, name] of [
      ['/tickets', '07-tickets'],
      ['/shipments', '08-shipments'],
      ['/inquiries', '09-inquiries'],
      ['/customers', '10-customers'],
      ['/invoices', '11-invoices'],
      ['/shifts', '12-shifts'],
      ['/timeclock', '13-timeclock'],
      ['/dock', '14-dock'],
      ['/capacity', '15-capacity'],
      ['/daas', '16-daas'],
      ['/store', '17-store'],
      ['/tradein', '18-tradein'],
      ['/reports', '19-reports'],
      ['/compliance', '20-compliance'],
      ['/settings', '21-settings'],
      ['/integrations', '22-integrations'],
    ] as const) {
      await go(hash);
      await page.waitForFunction(() => !document.querySelector('.spinner'), undefined, { timeout: 10_000 });
      const text = await page.locator('.content').innerText();
      expect(text.trim().length, hash).toBeGreaterThan(10);
      await shot(page, name);
    }
  });

  it('opens a ticket and posts a message', async () => {
    const { page } = t.b;
    await go('/tickets');
    await page.locator('tr', { hasText: 'TK-0667' }).click();
    await page.getByPlaceholder(/返信を入力/).fill('代替機を本日発送します。');
    await page.getByRole('button', { name: '送信' }).click();
    await page.getByTestId('messages').getByText('代替機を本日発送します。').waitFor();
    const { messages } = await api<{ messages: { text: string }[] }>('/api/ticket/TK-0667/messages');
    expect(messages.some((m) => m.text === '代替機を本日発送します。')).toBe(true);
    await shot(page, '07-tickets');
  });
});
