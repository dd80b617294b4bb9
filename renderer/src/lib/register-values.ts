/** What a technician chooses for the devices they register (the register dialog, the receiving session). */
export const MDM_OPTIONS = ['Intune', 'Jamf Pro', 'LANSCOPE', 'CLOMO', 'Apple Business Manager', 'なし'];

export interface RegisterValues {
  model: string;
  cust: string;
  mdm: string;
  status: string;
  loc: string;
}

/**
 * Body of POST /api/device for explicitly chosen values. 「なし」 (no MDM) is sent as it reads: the API fills a
 * blank MDM with its default platform, which would record an MDM nobody chose.
 */
export function deviceBody(imei: string, v: RegisterValues) {
  return { imei, model: v.model.trim(), cust: v.cust.trim(), mdm: v.mdm, status: v.status, loc: v.loc.trim() };
}

/** The choices still to make before a device can be registered. */
export function missingValues(v: RegisterValues): string[] {
  const out: string[] = [];
  if (!v.model.trim()) out.push('機種');
  if (!v.cust.trim()) out.push('顧客');
  if (!v.mdm) out.push('MDM');
  return out;
}
