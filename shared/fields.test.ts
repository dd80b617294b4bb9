import { describe, expect, it } from 'vitest';
import { bool, clip, createShape, intClamp, num, oneOf, patchShape, text } from './fields';

const fields = {
  name: text(5),
  status: text(10).default('入荷待ち'),
  stage: intClamp(0, 7, 0),
  dir: oneOf(['provide', 'accept', 'request'], 'provide'),
  bat: num().default(100),
  late: bool(),
};

describe('field rules', () => {
  it('clips by characters without splitting a surrogate pair', () => {
    expect(clip('𠮷野家の牛丼', 2)).toBe('𠮷野');
    expect(clip('abc', 5)).toBe('abc');
  });

  it('applies defaults on create, for missing, null and blank values', () => {
    const create = createShape(fields);
    expect(create.parse({})).toEqual({ name: '', status: '入荷待ち', stage: 0, dir: 'provide', bat: 100, late: false });
    expect(create.parse({ status: '  ', bat: null }).status).toBe('入荷待ち');
    expect(create.parse({ status: '  ', bat: null }).bat).toBe(100);
  });

  it('clips, clamps and falls back as declared', () => {
    const v = createShape(fields).parse({ name: 'abcdefgh', stage: 99, dir: 'sideways', bat: '87', late: 'true' });
    expect(v).toMatchObject({ name: 'abcde', stage: 7, dir: 'provide', bat: 87, late: true });
  });

  it('refuses wrong types', () => {
    const create = createShape(fields);
    expect(create.safeParse({ name: { x: 1 } }).success).toBe(false);
    expect(create.safeParse({ bat: 'many' }).success).toBe(false);
    expect(create.safeParse({ late: 'perhaps' }).success).toBe(false);
    expect(create.safeParse('text').success).toBe(false);
  });

  it('keeps only the non-null fields of an update', () => {
    expect(patchShape(fields).parse({ name: null, stage: 3 })).toEqual({ stage: 3 });
  });
});
