import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

/** A free loopback port, so the server can be told its own public address (KITTING_PUBLIC_URL) up front. */
const port = await new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const addr = s.address();
    s.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
  });
});
const PUBLIC = `http://127.0.0.1:${port}`;
const t = e2eSession({ env: { PORT: String(port), KITTING_PUBLIC_URL: PUBLIC } });

const activeTestId = () => t.b.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? null);

describe('signed certificates in the certificate list', () => {
  it('shows 署名済, revokes with a reason from the keyboard (then 失効), and links to the bilingual verification page', async () => {
    const { page, context } = t.b;
    const made = await t.post<{ cert: { no: string } }>('/api/cert', {
      cust: '株式会社北斗物流',
      operator: '佐藤 健一',
      devices: [{ model: 'iPhone 15', id: '353795089752529', storage: '128GB' }],
    });
    expect(made.status).toBe(200);
    const no = made.body.cert.no;

    await t.go('/certs');
    const row = page.locator('tr', { hasText: no });
    await row.getByTestId('cert-signature').getByText('署名済').waitFor();

    // The link opens the public verification page of this certificate, answering in Japanese and English.
    const link = row.getByRole('link', { name: '検証ページ' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${PUBLIC}/verify/${no}\\?d=[A-Za-z0-9_-]{43}$`));
    const [valid] = await Promise.all([context.waitForEvent('page'), link.click()]);
    const validHeading = valid.getByRole('heading', { level: 1 });
    await validHeading.getByText('この証明書は有効です').waitFor();
    await validHeading.getByText('This certificate is genuine and valid').waitFor();
    const validText = await valid.locator('body').innerText();
    expect(validText).toContain(no);
    expect(validText).toContain('株式会社北斗物流');
    expect(validText).toContain('353795089752529');
    await valid.close();

    // The revoke dialog is reached, cancelled and confirmed with the keyboard alone.
    const revoke = row.getByTestId('cert-revoke');
    await revoke.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `証明書 ${no} の失効` });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await row.getByTestId('cert-signature').innerText()).toContain('署名済');

    await revoke.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // Focus is in the reason field; without a reason the dialog cannot be confirmed.
    await expect.poll(activeTestId).toBe('ct-revoke-reason');
    expect(await dialog.getByTestId('cert-revoke-confirm').isDisabled()).toBe(true);
    await page.keyboard.type('お客様名の記載誤りのため再発行');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(activeTestId).toBe('cert-revoke-confirm');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await row.getByTestId('cert-signature').getByText('失効').waitFor();
    expect(await row.getByTestId('cert-revoke').count()).toBe(0);
    expect(await row.getByTestId('cert-signature').locator('[title]').getAttribute('title')).toBe('失効理由: お客様名の記載誤りのため再発行');
    await shot(page, '31-certs-revoked');

    // Reloaded, the list still says 失効; the verification page answers revoked with the reason.
    await t.go('/certs');
    await page.locator('tr', { hasText: no }).getByTestId('cert-signature').getByText('失効').waitFor();
    const [revoked] = await Promise.all([context.waitForEvent('page'), page.locator('tr', { hasText: no }).getByRole('link', { name: '検証ページ' }).click()]);
    const revokedHeading = revoked.getByRole('heading', { level: 1 });
    await revokedHeading.getByText('この証明書は失効しています').waitFor();
    await revokedHeading.getByText('This certificate has been revoked').waitFor();
    expect(await revoked.locator('body').innerText()).toContain('お客様名の記載誤りのため再発行');
    await revoked.close();
  }, 90_000);
});
