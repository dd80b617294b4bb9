import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, type AgentsTestServer } from '../server/agents/harness.testkit';
import { launch, type Browser } from './harness.testkit';

let agents: AgentsTestServer;
let shop: Server;
let shopUrl = '';
let b: Browser;
let publicId = '';
let owner: Awaited<ReturnType<AgentsTestServer['withAgent']>>['api'];

beforeAll(async () => {
  agents = await startAgentsServer();
  const made = await agents.withAgent('Front Desk');
  owner = made.api;
  publicId = made.publicId;
  await owner.post('/api/sources', { type: 'qa', question: 'Where is the store?', answer: 'We are at 1-2-3 Umeda, Osaka.' });
  await owner.put('/api/widget', { title: 'Front Desk', suggestions: ['Where is the store?'], language: 'en' });
  // A customer's page on another origin embeds the widget with the snippet's script tag.
  shop = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const visit = new URL(req.url ?? '/', 'http://shop').searchParams;
    // /?agent=<publicId>&lang=<browser language>: a Japanese shop page seen by a visitor whose browser speaks lang
    if (visit.get('agent')) {
      res.end(`<!doctype html><html lang="ja"><head><title>店舗</title></head><body><h1>店舗</h1>
<script>Object.defineProperty(navigator, 'language', { get: () => ${JSON.stringify(visit.get('lang'))} });</script>
<script src="${agents.base}/widget.js" data-agent="${visit.get('agent')}" async></script></body></html>`);
      return;
    }
    res.end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<script src="${agents.base}/widget.js" data-agent="${publicId}" data-poll-ms="300" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}/`;
  b = await launch();
}, 60_000);
afterAll(async () => {
  await b?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  await agents?.close();
});

describe('embedded chat widget in Chromium', () => {
  it('opens on a page of another origin, answers from the trained Q&A pair, and shows an operator reply', async () => {
    const page = b.page;
    await page.goto(shopUrl);
    const host = page.locator(`#agent-widget-${publicId}`);
    await host.locator('button.launcher').click();
    await host.locator('.panel.open').waitFor();
    await host.locator('.chips button', { hasText: 'Where is the store?' }).click();
    await host.locator('.msg.assistant', { hasText: '1-2-3 Umeda, Osaka' }).waitFor();

    // The visitor asks for a person; the team takes over and replies from the inbox.
    await host.locator('textarea').fill('I want to talk to a human please');
    await host.locator('form.send button').click();
    await host.locator('.msg.assistant', { hasText: 'member of our team' }).waitFor();
    const cid = await page.evaluate(() => (window as unknown as { AgentWidget: { conversationId(): string } }).AgentWidget.conversationId());
    const reply = await owner.post(`/api/conversations/${cid}/reply`, { text: 'Hello, this is Sato from the shop.' });
    expect(reply.status).toBe(200);
    await host.locator('.msg.operator', { hasText: 'Sato from the shop' }).waitFor();

    const conv = await owner.get(`/api/conversations/${cid}`);
    expect(conv.body.conversation.channel).toBe('widget');
  });

  it("greets in the visitor's language when the owner left the texts to the widget, with icons that need no font", async () => {
    const made = await agents.withAgent('サポート窓口');
    const visit = async (language: string) => {
      const page = await b.context.newPage();
      page.on('pageerror', (e) => console.log('[widget page error]', e.message));
      await page.goto(`${shopUrl}?agent=${made.publicId}&lang=${language}`);
      const host = page.locator(`#agent-widget-${made.publicId}`);
      const launcher = host.locator('button.launcher');
      await launcher.waitFor();
      const launcherText = (await launcher.textContent())?.trim();
      expect(await launcher.locator('svg').count()).toBe(1);
      await launcher.click();
      await host.locator('.panel.open').waitFor();
      const out = {
        launcherText,
        welcome: await host.locator('.msg.assistant').first().textContent(),
        placeholder: await host.locator('textarea').getAttribute('placeholder'),
        send: await host.locator('form.send button').textContent(),
        closeIcon: await host.locator('.head button.close svg').count(),
      };
      await page.close();
      return out;
    };
    expect(await visit('ja-JP')).toEqual({ launcherText: '', welcome: 'こんにちは。サポート窓口です。ご用件をお聞かせください。', placeholder: 'メッセージを入力…', send: '送信', closeIcon: 1 });
    expect(await visit('en-US')).toEqual({ launcherText: '', welcome: "Hi! I'm サポート窓口. How can I help you today?", placeholder: 'Type your message…', send: 'Send', closeIcon: 1 });

    // An owner's own welcome is kept as written, in every language.
    await made.api.patch(`/api/agents/${made.agentId}`, { welcome_message: 'いらっしゃいませ。' });
    expect((await visit('en-US')).welcome).toBe('いらっしゃいませ。');
  }, 90_000);
});
