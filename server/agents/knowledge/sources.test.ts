import { createServer, type Server } from 'node:http';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
let open: AgentsTestServer;
let site: Server;
let siteUrl = '';

const PAGES: Record<string, string> = {
  '/': '<html><head><title>Acme Home</title><meta property="og:description" content="Acme makes rocket skates."><meta property="og:image" content="/logo.png"></head><body><nav>menu</nav><h1>Welcome</h1><p>Acme makes rocket skates for coyotes.</p><a href="/shipping">Shipping</a> <a href="/returns">Returns</a> <a href="https://elsewhere.example/">out</a></body></html>',
  '/shipping': '<html><head><title>Shipping</title></head><body><p>We ship worldwide within 5 business days.</p><a href="/">home</a><a href="/secret">more</a></body></html>',
  '/returns': '<html><head><title>Returns</title></head><body><p>Returns are accepted for 30 days.</p></body></html>',
  '/secret': '<html><body><p>Page four should not be crawled with a limit of three.</p></body></html>',
};

beforeAll(async () => {
  t = await startAgentsServer();
  open = await startAgentsServer({ allowPrivateFetch: true, crawlPageLimit: 3 });
  site = createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const a = site.address();
  siteUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  site.close();
  await t.close();
  await open.close();
});

async function pdfBase64(lines: string[]): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((l, i) => page.drawText(l, { x: 50, y: 780 - i * 20, size: 12, font }));
  return Buffer.from(await doc.save()).toString('base64');
}

async function docxBase64(paragraphs: string[]): Promise<string> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
  return (await zip.generateAsync({ type: 'nodebuffer' })).toString('base64');
}

describe('POST /api/sources', () => {
  it('adds text and Q&A sources, indexed at once, and reads them back in full', async () => {
    const { api, agentId } = await t.withAgent();
    const text = await api.post('/api/sources', { type: 'text', name: 'About', content: 'Our shop sells handmade ceramic mugs.' });
    expect(text.status).toBe(200);
    expect(text.body.source).toMatchObject({ agentId, type: 'text', name: 'About', status: 'trained', sizeKb: 1 });
    const qa = await api.post(`/api/sources?agent=${agentId}`, { type: 'qa', question: 'Do you ship abroad?', answer: 'Yes, to 40 countries.' });
    expect(qa.body.source).toMatchObject({ type: 'qa', name: 'Do you ship abroad?', question: 'Do you ship abroad?', answer: 'Yes, to 40 countries.' });
    const one = await api.get(`/api/sources/${str(text.body.source.id)}`);
    expect(one.body.source.content).toBe('Our shop sells handmade ceramic mugs.');
    expect(arr((await api.get('/api/sources')).body.sources)).toHaveLength(2);
    expect(arr((await api.get('/api/sources?type=qa')).body.sources).map((s) => s.id)).toEqual([qa.body.source.id]);
  });

  it('refuses missing fields per type and unknown types with 400, storing nothing', async () => {
    const { api } = await t.withAgent();
    expect((await api.post('/api/sources', { type: 'text' })).body).toEqual({ error: 'content is required' });
    expect((await api.post('/api/sources', { type: 'qa', question: 'Q?' })).body).toEqual({ error: 'answer is required' });
    expect((await api.post('/api/sources', { type: 'file' })).body).toEqual({ error: 'dataBase64 is required' });
    expect((await api.post('/api/sources', { type: 'website' })).body).toEqual({ error: 'url is required' });
    expect((await api.post('/api/sources', { type: 'video', content: 'x' })).status).toBe(400);
    expect((await api.post('/api/sources', { name: 'x' })).body).toEqual({ error: 'type is required' });
    expect((await api.post('/api/sources', { type: 'file', dataBase64: Buffer.from('\u0000\u0001zip?').toString('base64'), mime: 'application/zip' })).status).toBe(400);
    expect(arr((await api.get('/api/sources')).body.sources)).toHaveLength(0);
  });

  it('answers 404 when the workspace has no agent yet', async () => {
    const u = await t.signup();
    expect((await u.post('/api/sources', { type: 'text', content: 'x' })).body).toEqual({ error: 'agent not found' });
  });

  it('extracts the text of a real PDF and a real DOCX, and answers from it', async () => {
    const { api, agentId } = await t.withAgent();
    const pdf = await api.post('/api/sources', { type: 'file', name: 'manual.pdf', mime: 'application/pdf', dataBase64: await pdfBase64(['Warranty policy', 'The warranty period for every blender is 24 months.']) });
    expect(pdf.status).toBe(200);
    expect(str(pdf.body.source.content)).toContain('warranty period for every blender is 24 months');
    expect(pdf.body.source).toMatchObject({ type: 'file', mime: 'application/pdf', status: 'trained' });
    const docx = await api.post('/api/sources', {
      type: 'file',
      name: 'faq.docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      dataBase64: await docxBase64(['Store locations', 'Our flagship store is located in Osaka near Namba station.']),
    });
    expect(docx.status).toBe(200);
    expect(str(docx.body.source.content)).toContain('flagship store is located in Osaka');
    const chat = await api.post('/api/chat', { agentId, message: 'How long is the warranty period for a blender?' });
    expect(str(chat.body.reply)).toContain('24 months');
  });

  it('takes an upload body over 1 MB (up to 12 MB) on /api/sources', async () => {
    const { api } = await t.withAgent();
    const big = 'Lorem ipsum dolor sit amet. '.repeat(60_000);
    const r = await api.post('/api/sources', { type: 'file', name: 'big.txt', mime: 'text/plain', dataBase64: Buffer.from(big).toString('base64') });
    expect(r.status).toBe(200);
    expect(r.body.source.sizeKb).toBeGreaterThan(1024);
    const tooBig = await api.post('/api/sources', { type: 'text', name: 'x', content: 'y'.repeat(13 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
  });
});

describe('website and social sources', () => {
  it('refuses private addresses by default', async () => {
    const { api } = await t.withAgent();
    const r = await api.post('/api/sources', { type: 'website', url: `${siteUrl}/` });
    expect(r.status).toBe(200);
    await Promise.allSettled([...t.ctx.background]);
    const s = await api.get(`/api/sources/${str(r.body.source.id)}`);
    expect(s.body.source).toMatchObject({ status: 'failed', error: 'url must be a public address' });
    expect((await api.post('/api/sources/social', { url: `${siteUrl}/` })).body).toEqual({ error: 'url must be a public address' });
    expect((await api.post('/api/sources', { type: 'website', url: 'file:///etc/passwd' })).status).toBe(200);
  });

  it('crawls a site asynchronously within the page limit, same origin only', async () => {
    const { api, agentId } = await open.withAgent();
    const r = await api.post('/api/sources', { type: 'website', url: `${siteUrl}/` });
    expect(r.body.source.status).toBe('crawling');
    await Promise.allSettled([...open.ctx.background]);
    const s = await api.get(`/api/sources/${str(r.body.source.id)}`);
    expect(s.body.source).toMatchObject({ status: 'trained', pages: 3 });
    expect(str(s.body.source.content)).toContain('ship worldwide within 5 business days');
    expect(str(s.body.source.content)).not.toContain('Page four');
    expect(str(s.body.source.content)).not.toContain('menu');
    const chat = await api.post('/api/chat', { agentId, message: 'How many days does shipping take?' });
    expect(str(chat.body.reply)).toContain('5 business days');
  });

  it('trains on a social profile bio and borrows its avatar', async () => {
    const { api, agentId } = await open.withAgent();
    const r = await api.post('/api/sources/social', { url: `${siteUrl}/`, platform: 'instagram' });
    expect(r.status).toBe(200);
    expect(r.body.source).toMatchObject({ type: 'social', mime: 'instagram' });
    expect(str(r.body.source.content)).toContain('Acme makes rocket skates.');
    expect(r.body.avatar_url).toBe(`${siteUrl}/logo.png`);
    expect((await api.get(`/api/agents/${agentId}`)).body.agent.avatar_url).toBe(`${siteUrl}/logo.png`);
  });
});

describe('PATCH, DELETE, summary and retrain', () => {
  it('edits and re-indexes, deletes and de-indexes, summarises and retrains', async () => {
    const { api, agentId } = await t.withAgent();
    const qa = await api.post('/api/sources', { type: 'qa', question: 'What is the parking fee?', answer: 'Parking is free.' });
    const id = str(qa.body.source.id);
    const p = await api.patch(`/api/sources/${id}`, { answer: 'Parking costs 300 yen per hour.' });
    expect(p.body.source.answer).toBe('Parking costs 300 yen per hour.');
    expect((await api.post('/api/chat', { agentId, message: 'What is the parking fee?' })).body.reply).toBe('Parking costs 300 yen per hour.');
    await api.post('/api/sources', { type: 'text', name: 'T', content: 'Plain text knowledge.' });
    const sum = await api.get('/api/sources/summary');
    expect(sum.body).toMatchObject({ agentId, total: 2, passages: 2, byType: { qa: 1, text: 1, file: 0, website: 0, social: 0 }, byStatus: { trained: 2, crawling: 0, failed: 0 } });
    const re = await api.post('/api/sources/retrain', {});
    expect(re.body).toMatchObject({ ok: true, sources: 2, passages: 2 });
    expect((await api.del(`/api/sources/${id}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/sources/${id}`)).status).toBe(404);
    const after = await api.post('/api/chat', { agentId, message: 'What is the parking fee?' });
    expect(after.body.reply).not.toContain('300 yen');
    expect((await api.get('/api/sources/summary')).body.passages).toBe(1);
  });

  it("answers 404 for another workspace's source on every id route", async () => {
    const { api } = await t.withAgent();
    const s = await api.post('/api/sources', { type: 'text', name: 'x', content: 'secret knowledge' });
    const id = str(s.body.source.id);
    const other = (await t.withAgent()).api;
    expect((await other.get(`/api/sources/${id}`)).status).toBe(404);
    expect((await other.patch(`/api/sources/${id}`, { name: 'stolen' })).status).toBe(404);
    expect((await other.del(`/api/sources/${id}`)).status).toBe(404);
    expect((await api.get(`/api/sources/${id}`)).body.source.name).toBe('x');
  });
});
