import { describe, expect, it } from 'vitest';
import { deviceBody, missingValues } from './register-values';

const chosen = { model: ' iPhone 15 ', cust: ' ABC物流株式会社 ', mdm: 'なし', status: '入荷済', loc: ' A-01 ' };

describe('the body a registration sends', () => {
  it('sends 「なし」 as the MDM when no MDM was chosen (a blank would be filled with the default platform)', () => {
    expect(deviceBody('352099000000011', chosen)).toEqual({ imei: '352099000000011', model: 'iPhone 15', cust: 'ABC物流株式会社', mdm: 'なし', status: '入荷済', loc: 'A-01' });
    expect(deviceBody('352099000000011', { ...chosen, mdm: 'Jamf Pro' }).mdm).toBe('Jamf Pro');
  });

  it('names the choices still missing', () => {
    expect(missingValues({ ...chosen, model: ' ', mdm: '' })).toEqual(['機種', 'MDM']);
    expect(missingValues(chosen)).toEqual([]);
  });
});
