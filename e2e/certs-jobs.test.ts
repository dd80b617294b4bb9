import { describe, expect, it } from 'vitest';
import { generateImei } from '../shared/imei';
import { scanKeys, shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

const t = e2eSession();
const { api: get, go } = t;

/** A keyboard-wedge scanner: digits 8 ms apart on the scanner's clock, then Enter. */
const scan = (code: string) => scanKeys(t.b.page, code);
interface Dev {
  imei: string;
  status: string;
  model: string;
  history?: { what: string; by: string; detail: string }[];
}
const device = async (imei: string) => (await get<{ devices: Dev[] }>('/api/devices')).devices.find((d) => d.imei === imei);

describe('erasure certificate at the bench', () => {
  it('operator from the bench, unknown IMEI refused then registered explicitly, issuing marks the devices 消去済 with history', async () => {
    const { page } = t.b;
    await go('/certs');
    await page.locator('#scan').waitFor();
    const issue = page.getByTestId('cert-issue');
    expect(await issue.isDisabled()).toBe(true);
    await expect.poll(() => issue.innerText()).toContain('0台');

    // The customer field has focus; scanning still adds devices and types nothing into it.
    await page.locator('#ct-cust').focus();
    await scan('353795089752529');
    await page.getByTestId('cert-lines').getByText('353795089752529').waitFor();
    expect(await page.locator('#ct-cust').inputValue()).not.toContain('3537950');

    const stranger = generateImei();
    await scan(stranger);
    await page.getByTestId('scan-msg').getByText('台帳に未登録のため追加できません').waitFor();
    expect(await page.getByTestId('cert-lines').getByText(stranger).count()).toBe(0);
    await page.getByTestId('cert-register-unknown').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: '未登録の端末を登録' });
    await dialog.waitFor();
    await page.keyboard.type('Pixel 8a');
    await page.keyboard.press('Tab');
    await page.keyboard.type('株式会社山下電設');
    await page.locator('#rg-mdm').selectOption('CLOMO');
    await page.locator('#rg-loc').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('cert-lines').getByText(stranger).waitFor();

    await page.locator('#ct-cust').fill('株式会社山下電設');
    await page.locator('#ct-operator').fill('高橋 美咲');
    await expect.poll(() => issue.isDisabled()).toBe(false);
    await issue.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: '確認' }).waitFor();
    await page.keyboard.press('Enter');
    const issued = page.getByTestId('cert-issued');
    await issued.getByText('高橋 美咲').waitFor();
    await issued.getByText('2台を「消去済」').waitFor();
    const no = /KIT-ERZ-\d{4}-\d{4}/.exec(await issued.innerText())?.[0] ?? '';
    const { cert } = await get<{ cert: { operator: string; devices: { id: string; model: string }[] } }>(`/api/cert/${no}`);
    expect(cert.operator).toBe('高橋 美咲');
    expect(cert.devices.find((d) => d.id === stranger)?.model).toBe('Pixel 8a');
    for (const imei of ['353795089752529', stranger]) {
      const d = await device(imei);
      expect(d?.status).toBe('消去済');
      expect(d?.history?.at(-1)).toMatchObject({ what: 'データ消去', by: '高橋 美咲' });
    }
    expect(await issue.isDisabled()).toBe(true);
    await shot(page, '21-certs-operator');

    // The operator is remembered for this bench.
    await page.reload();
    await page.locator('#ct-operator').waitFor();
    expect(await page.locator('#ct-operator').inputValue()).toBe('高橋 美咲');
  }, 90_000);
});

describe('job cards carry devices', () => {
  it('devices scanned into a card move through the stages with it; due dates are real dates; every column header can be reached', async () => {
    const { page } = t.b;
    const imeis = [generateImei(), generateImei()];
    for (const imei of imeis) await t.b.context.request.post(`${t.server.url}/api/device`, { data: { imei, model: 'iPhone 15', cust: 'ABC物流株式会社', mdm: 'Intune' } });
    const created = await t.b.context.request.post(`${t.server.url}/api/job`, { data: { t: 'ABC物流 iPhone 15 ×2台', c: 'ABC物流株式会社', s: 2, due: '2026-12-10' } });
    const jobId = ((await created.json()) as { job: { id: string } }).job.id;
    await go('/jobs');
    const card = page.locator(`[data-job="${jobId}"]`);
    await card.waitFor();
    await card.getByText('期限 2026/12/10').waitFor();
    await card.focus();
    for (const imei of imeis) await scan(imei);
    await card.getByTestId('job-devices').getByText('端末 2台').waitFor();
    for (const imei of imeis) expect(await device(imei)).toMatchObject({ status: '入荷検品' });
    await page.keyboard.press('ArrowRight');
    await page.locator(`.col[data-stage="3"] [data-job="${jobId}"]`).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.locator(`.col[data-stage="4"] [data-job="${jobId}"]`).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.locator(`.col[data-stage="5"] [data-job="${jobId}"]`).waitFor();
    await expect.poll(async () => (await device(imeis[0] ?? ''))?.status).toBe('梱包');
    const d = await device(imeis[1] ?? '');
    expect(d?.status).toBe('梱包');
    expect(d?.history?.at(-1)?.detail).toContain('動作検証 → 梱包');
    // The 完了 column header is reachable on a 1440 px window (the board scrolls sideways).
    const head = page.locator('.col[data-stage="7"] h3');
    await head.scrollIntoViewIfNeeded();
    const box = await head.boundingBox();
    expect(box && box.x + box.width <= 1440 && box.x >= 0).toBe(true);
    await shot(page, '22-jobs-devices');
  }, 90_000);
});
