/**
 * The one timestamp rule of every input the API documents as `date-time`: RFC 3339 (section 5.6)
 * as both readings of it take it. RFC 3339 lets "t" and "z" be lower case; the service parses
 * timestamps as protobuf's JSON mapping does (Go's RFC 3339 parser), which takes neither, nor a
 * leap second, nor a time outside years 0001 to 9999. So the rule is the intersection: a date,
 * "T", hours, minutes and seconds, an optional fraction of up to nine digits, then "Z" or an
 * offset such as "+02:00".
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/;

/** What each rule refusal says, after the property's name. */
export const EXAMPLE = "2030-01-01T00:00:00Z or 2030-01-01T02:00:00+02:00";

/** The earliest and latest whole seconds a protobuf Timestamp holds (0001-01-01T00:00:00Z, 9999-12-31T23:59:59Z). */
const FIRST_SECOND = -62_135_596_800;
const LAST_SECOND = 253_402_300_799;

const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** Why `value` is not a timestamp the service takes, or undefined when it is one. */
export function timestampIssue(value: string): string | undefined {
  const parts = RFC3339.exec(value);
  if (!parts) {
    const cased = RFC3339.exec(value.toUpperCase());
    return cased
      ? `must write "T" and "Z" in capitals (the service reads no other): such as ${EXAMPLE}`
      : `must be an RFC 3339 time (a date, "T", a time with seconds and an optional fraction, then "Z" or an offset) such as ${EXAMPLE}`;
  }
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const offsetHours = parts[10] === undefined ? 0 : Number(parts[10]);
  const offsetMinutes = parts[11] === undefined ? 0 : Number(parts[11]);
  if (month < 1 || month > 12) return `must name a month from 01 to 12 (${parts[2]} is none)`;
  if (day < 1 || day > daysIn(year, month))
    return `must name a day of the month (${parts[1]}-${parts[2]} has no day ${parts[3]})`;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return "must name a time of day: hours 00 to 23, minutes and seconds 00 to 59 (no leap second), offsets up to 23:59";
  const sign = parts[9] === "-" ? -1 : 1;
  // Whole seconds since the epoch, UTC: the offset is how far the local time is ahead of UTC.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const seconds =
    date.getTime() / 1000 + hour * 3600 + minute * 60 + second - sign * (offsetHours * 3600 + offsetMinutes * 60);
  if (seconds < FIRST_SECOND || seconds > LAST_SECOND)
    return "must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z";
  return undefined;
}
