import type { VerifyAnswer } from './cert-verify.service';

/**
 * The verification page a QR code on a certificate leads to (/verify/<no>?d=…): the answer in Japanese
 * and English for a person holding the paper. Plain HTML without scripts.
 */
export const VERIFY_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const HEADLINE: Record<VerifyAnswer['status'], { ja: string; en: string; color: string }> = {
  valid: { ja: 'この証明書は有効です', en: 'This certificate is genuine and valid', color: '#1b7f3b' },
  revoked: { ja: 'この証明書は失効しています', en: 'This certificate has been revoked', color: '#b26a00' },
  mismatch: { ja: 'この証明書は確認できません（内容が一致しません）', en: 'This certificate does not match the issued record', color: '#b3261e' },
  unknown: { ja: 'この証明書は登録されていません', en: 'No such certificate is registered (yet)', color: '#555' },
};

export function verifyPage(no: string, a: VerifyAnswer): string {
  const h = HEADLINE[a.status];
  const r = a.certificate?.record;
  const rows: [string, string, string][] = r
    ? [
        ['証明書番号', 'Certificate no.', a.certificate?.formerNo ? `${a.certificate.no}（旧番号 / former ${a.certificate.formerNo}）` : (a.certificate?.no ?? '')],
        ['実施日', 'Date of erasure', r.date],
        ['お客様', 'Customer', r.customer],
        ['消去方式', 'Method', `${r.method.technique}（NIST SP 800-88: ${r.method.category}）`],
        ['対象台数', 'Devices', String(r.count)],
        ['作業者', 'Operator', r.operator],
        ['発行者', 'Issuer', a.issuer?.workspaceName ?? ''],
        ['発行日時', 'Issued at', a.issuedAt ?? ''],
        ['署名鍵', 'Signing key', a.issuer?.kid ?? ''],
      ]
    : [['証明書番号', 'Certificate no.', no]];
  if (a.revoked) rows.push(['失効', 'Revoked', `${a.revoked.at}  ${a.revoked.reason}`]);
  if (a.status === 'valid' && a.synced === false) rows.push(['同期', 'Synced', '作業台から未同期 / not yet synced from the bench']);
  const devices = r?.devices ?? [];
  const deviceRows = devices
    .slice(0, 200)
    .map((d, i) => `<tr><td>${i + 1}</td><td>${esc(d.model)}</td><td>${esc(d.imei ?? '')}</td><td>${esc(d.serial ?? '')}</td><td>${esc(d.storage)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>証明書の検証 / Certificate verification ${esc(no)}</title>
<style>body{font-family:system-ui,"Hiragino Sans","Noto Sans JP",sans-serif;max-width:760px;margin:2em auto;padding:0 1em;color:#1a1a1f}h1{font-size:1.3em;color:${h.color}}h1 small{display:block;font-size:.75em;color:#555;font-weight:normal}table{border-collapse:collapse;width:100%;margin:1em 0}th,td{border-bottom:1px solid #ddd;padding:.4em;text-align:left;vertical-align:top}th{width:12em;color:#555;font-weight:normal}th span{display:block;font-size:.8em}p.note{color:#555;font-size:.85em}</style></head>
<body><p>データ消去証明書の検証 / Erasure certificate verification</p>
<h1>${esc(h.ja)}<small>${esc(h.en)}</small></h1>
${a.message ? `<p>${esc(a.message)}</p>` : ''}
<table>${rows.map(([ja, en, v]) => `<tr><th>${esc(ja)}<span>${esc(en)}</span></th><td>${esc(v)}</td></tr>`).join('')}</table>
${deviceRows ? `<table><tr><th>No.</th><th>機種 / Model</th><th>IMEI</th><th>シリアル / Serial</th><th>ストレージ / Storage</th></tr>${deviceRows}</table>` : ''}
<p class="note">この結果は、証明書に記載された番号と内容のダイジェストを発行元が公開する署名鍵で照合したものです。PDF ファイルそのものは添付の certificate.json で検証できます。<br>This answer checks the certificate number and the digest of its content against the issuer's published signing keys. The PDF itself can be checked through its attached certificate.json.</p>
</body></html>`;
}
