/**
 * Deterministic generator for seeds/devices.json (the 178-device demo ledger).
 *
 *   npx tsx seeds/generate.ts
 *
 * Customer names are read from seeds/customers.json so the two files stay
 * consistent. A seeded PRNG keeps the output byte-for-byte stable; change SEED
 * only on purpose. The other seed files are hand-written JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidImei, luhnCheckDigit } from '../shared/imei';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 20261101;
const DEVICE_COUNT = 178;
const IN_HOUSE = '社内検証機';

/** mulberry32: small, fast, deterministic 32-bit PRNG returning [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
const pad = (n: number, w: number) => String(n).padStart(w, '0');

interface ModelInfo { maker: string; prefix: string; tac: string }
// TACs are fictional 8-digit values in the 35xxxxxx range, one per model.
const MODELS: Record<string, ModelInfo> = {
  'iPhone 16': { maker: 'Apple', prefix: 'IP16', tac: '35841217' },
  'iPhone 15': { maker: 'Apple', prefix: 'IP15', tac: '35614392' },
  'iPhone 14': { maker: 'Apple', prefix: 'IP14', tac: '35379508' },
  'iPhone SE (第3世代)': { maker: 'Apple', prefix: 'IPSE', tac: '35290451' },
  'iPad (第10世代)': { maker: 'Apple', prefix: 'IPAD', tac: '35448620' },
  'iPad Air': { maker: 'Apple', prefix: 'IPAA', tac: '35512873' },
  'Galaxy A55': { maker: 'Samsung', prefix: 'GA55', tac: '35067319' },
  'Pixel 8a': { maker: 'Google', prefix: 'PX8A', tac: '35726684' },
  'AQUOS sense8': { maker: 'SHARP', prefix: 'AQS8', tac: '35193746' },
  'arrows We2': { maker: 'FCNT', prefix: 'ARW2', tac: '35955102' },
};

interface Customer { key: string; name: string; mdm: string }
const customers: Customer[] = JSON.parse(readFileSync(join(here, 'customers.json'), 'utf8'));
const byKey = (k: string) => {
  const c = customers.find((x) => x.key === k);
  if (!c) throw new Error(`customer key ${k} missing from customers.json`);
  return c;
};

/** How many demo devices each customer holds and which models they use. */
const ALLOCATION: { cust: string; mdm: string | null; count: number; models: string[] }[] = [
  { key: 'abc', count: 32, models: ['iPhone 15', 'iPhone 15', 'iPhone SE (第3世代)', 'Galaxy A55', 'iPad (第10世代)'] },
  { key: 'nsk', count: 26, models: ['iPhone 16', 'iPhone 16', 'iPhone 14', 'iPad Air', 'arrows We2'] },
  { key: 'tkm', count: 20, models: ['iPhone SE (第3世代)', 'iPad (第10世代)', 'AQUOS sense8'] },
  { key: 'ysd', count: 14, models: ['iPhone 15', 'iPhone 14', 'iPad Air'] },
  { key: 'smp', count: 30, models: ['iPhone 16', 'iPhone 15', 'Galaxy A55', 'Pixel 8a'] },
  { key: 'mrn', count: 10, models: ['iPhone 16', 'iPhone 16', 'iPad Air'] },
  { key: 'kss', count: 12, models: ['AQUOS sense8', 'arrows We2', 'iPad (第10世代)'] },
  { key: 'hrh', count: 26, models: ['iPad (第10世代)', 'iPad (第10世代)', 'iPhone SE (第3世代)', 'AQUOS sense8'] },
].map(({ key, count, models }) => ({ cust: byKey(key).name, mdm: byKey(key).mdm, count, models }));
ALLOCATION.push({ cust: IN_HOUSE, mdm: null, count: 8, models: Object.keys(MODELS) });
const IN_HOUSE_MDM = ['Intune', 'Jamf Pro', 'LANSCOPE', 'CLOMO', 'Apple Business Manager'];

const STATUS_COUNTS: [string, number][] = [
  ['保管中', 70], ['作業中', 44], ['入荷待ち', 40], ['出荷済', 11], ['修理中', 7], ['返却済', 6],
];
const CHIP: Record<string, string> = {
  保管中: 'c-blue', 作業中: 'c-cyan', 入荷待ち: 'c-gray', 出荷済: 'c-green', 修理中: 'c-orange', 返却済: 'c-gray',
};

const SURNAMES = ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '山本', '中村', '小林', '加藤', '吉田', '山田', '松本', '井上', '木村', '林', '清水', '山崎', '森', '池田', '橋本', '石川', '前田', '藤田', '岡田', '後藤', '長谷川', '村上', '近藤', '坂本'];
const GIVEN = ['翔太', '大輔', '健一', '拓也', '直樹', '誠', '亮', '悠斗', '和也', '浩二', '美咲', '陽子', '真由美', '彩', '恵', '由美', '千尋', '麻衣', '奈々', '優子', '智子', '結衣'];
const person = () => `${pick(SURNAMES)} ${pick(GIVEN)}`;

const NOTES: Record<string, string[]> = {
  保管中: ['予備機', 'ABM登録済', '画面保護フィルム貼付済', 'ケース同梱', '初期化済・再配布待ち', 'OS 最新版適用済'],
  作業中: ['プロファイル適用中', 'アプリ配信待ち', 'アクティベーション待ち', 'ラベル貼付待ち', 'SIM 差替え作業中'],
  入荷待ち: ['メーカー直送予定', 'キャリア出荷待ち', '分納 2回目', '入荷日未確定'],
  出荷済: ['ヤマト運輸で発送済', '佐川急便で発送済', '受領書回収済'],
  修理中: ['液晶割れ・メーカー修理依頼済', 'バッテリー膨張のため交換修理', '充電不良・代替機出荷済', '水没・見積待ち'],
  返却済: ['データ消去待ち', '消去証明書発行済', '外装キズあり'],
};
const NOTE_RATE: Record<string, number> = { 保管中: 0.2, 作業中: 0.35, 入荷待ち: 0.3, 出荷済: 0.6, 修理中: 1, 返却済: 1 };

function location(status: string): string {
  switch (status) {
    case '保管中': return `${pick(['A', 'B', 'C', 'D'])}-${pad(int(1, 12), 2)}-${pad(int(1, 5), 2)}`;
    case '作業中': return `作業台${int(1, 6)}`;
    case '修理中': return `修理棚R-${pad(int(1, 3), 2)}`;
    case '返却済': return '返却受入エリア';
    default: return ''; // 入荷待ち (not on site yet) and 出荷済 (with the end user)
  }
}

function battery(status: string): number {
  if (status === '入荷待ち') return int(96, 100);
  if (status === '修理中' || status === '返却済') return int(60, 85);
  return int(72, 100);
}

// Slot lists: one entry per device, shuffled so customers and statuses interleave.
const custSlots = shuffle(ALLOCATION.flatMap((a) => Array.from({ length: a.count }, () => a)));
const statusSlots = shuffle(STATUS_COUNTS.flatMap(([s, n]) => Array.from({ length: n }, () => s)));
if (custSlots.length !== DEVICE_COUNT || statusSlots.length !== DEVICE_COUNT) {
  throw new Error('allocation does not add up to ' + DEVICE_COUNT);
}

const seen = new Set<string>();
function imeiFor(model: string): string {
  for (;;) {
    let body = MODELS[model]!.tac;
    for (let i = 0; i < 6; i++) body += String(int(0, 9));
    const imei = body + String(luhnCheckDigit(body));
    if (!seen.has(imei)) {
      seen.add(imei);
      return imei;
    }
  }
}

const devices = custSlots.map((alloc, i) => {
  const n = i + 1;
  const model = pick(alloc.models);
  const info = MODELS[model]!;
  const status = statusSlots[i]!;
  const mdm = alloc.mdm ?? (info.maker === 'Apple' ? pick(IN_HOUSE_MDM) : pick(['Intune', 'LANSCOPE', 'CLOMO']));
  const hasUser = status === '作業中' || status === '出荷済' || status === '修理中';
  const note = rand() < NOTE_RATE[status]! ? pick(NOTES[status]!) : '';
  return {
    imei: imeiFor(model),
    serial: `${info.prefix}-${pad(n, 6)}`,
    asset: `HK-26-${n}`,
    model,
    maker: info.maker,
    cust: alloc.cust,
    mdm,
    status,
    chip: CHIP[status]!,
    bat: battery(status),
    loc: location(status),
    user: hasUser ? person() : '',
    note,
  };
});

for (const d of devices) if (!isValidImei(d.imei)) throw new Error('bad imei ' + d.imei);

writeFileSync(join(here, 'devices.json'), JSON.stringify(devices, null, 2) + '\n');
console.log(`wrote ${devices.length} devices to seeds/devices.json`);
