// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// How an insight card shows its value (web/src/pages/insights/insightValue.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayValue } from '../../web/src/pages/insights/insightValue.ts';

describe('insight values', () => {
  it("formats numbers and numeric strings in the reader's locale", () => {
    assert.equal(displayValue('1234567.5', 'en-US').text, '1,234,567.5');
    assert.equal(displayValue('1234567.5', 'de-DE').text, '1.234.567,5');
    assert.equal(displayValue(' 2005 ', 'en-US').text, '2,005');
    assert.equal(displayValue('-0.5', 'en-US').text, '-0.5');
    assert.equal(displayValue('.5', 'en-US').text, '0.5');
    assert.equal(displayValue('1e3', 'en-US').text, '1,000');
    assert.equal(displayValue('42', 'en-US').kind, 'number');
  });

  it('keeps every digit of a long counter for the tooltip and shows it compact', () => {
    const shown = displayValue('123456789012345678901234', 'en-US');
    assert.equal(shown.full, '123,456,789,012,345,678,901,234');
    assert.ok(shown.text.length <= 16, shown.text);
    assert.equal(displayValue('12345678901234', 'en-US').text, '12.35T');
    assert.equal(displayValue('123456789012', 'en-US').size, 2, 'long numbers shrink a step');
    assert.equal(displayValue('12345', 'en-US').size, 0);
  });

  it('shows other values as written', () => {
    for (const value of ['green', '$1,234', '0x1f', 'Infinity', 'NaN', '1 2', '12px']) {
      assert.deepEqual(displayValue(value, 'en-US'), { kind: 'text', text: value, full: value, size: 0 }, value);
    }
    assert.equal(displayValue('', 'en-US').kind, 'empty');
    assert.equal(displayValue('   ', 'en-US').kind, 'empty');
  });
});
