/**
 * The timestamp rule (f.timestamp(), core/model/timestamp.ts): RFC 3339 as the API documents'
 * `date-time` and the service's parser both take it, offsets included; every refusal names the
 * field, before any request.
 */
import { checkInputs } from "./check";
import type { ResourceKind } from "./kind";
import { EXAMPLE, timestampIssue } from "./timestamp";

/** A kind of its own with one top-level and one nested time, so the rule is seen through check. */
const timed: ResourceKind = {
  typeName: "Timed",
  noun: "timed record",
  domain: "iam",
  collection: "timed",
  message: "test.Timed",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      expireTime: f.timestamp(),
      window: f.z.strictObject({ startTime: f.timestamp().optional() }).optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["expireTime", "window"],
  replaceOn: [],
  alreadyExistsHint: "",
};

const failures = (inputs: Record<string, unknown>) => checkInputs(timed, { parentUid: "acme", ...inputs }).failures;

test.each([
  "2030-01-01T00:00:00Z",
  "2030-01-01T02:00:00+02:00",
  "2029-12-31T19:30:00-04:30",
  "2030-01-01T00:00:00.5Z",
  "2030-01-01T00:00:00.123456789+00:00",
  "2028-02-29T12:00:00Z",
  "2000-02-29T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999999999Z",
  "2030-06-30T23:59:59+23:59",
])("%s is a timestamp", (value) => {
  expect(timestampIssue(value)).toBeUndefined();
  expect(failures({ expireTime: value, window: { startTime: value } })).toEqual([]);
});

test.each([
  ["tomorrow", "must be an RFC 3339 time"],
  ["2030-01-01", "must be an RFC 3339 time"],
  ["2030-01-01T00:00Z", "must be an RFC 3339 time"],
  ["2030-01-01 00:00:00Z", "must be an RFC 3339 time"],
  ["2030-01-01T00:00:00", "must be an RFC 3339 time"],
  ["2030-01-01T00:00:00+0200", "must be an RFC 3339 time"],
  ["2030-01-01T00:00:00+02", "must be an RFC 3339 time"],
  ["2030-01-01T00:00:00.Z", "must be an RFC 3339 time"],
  ["2030-01-01T00:00:00.1234567890Z", "must be an RFC 3339 time"],
  ["+002030-01-01T00:00:00Z", "must be an RFC 3339 time"],
  ["2030-01-01t00:00:00z", 'must write "T" and "Z" in capitals'],
  ["2030-13-01T00:00:00Z", "must name a month from 01 to 12 (13 is none)"],
  ["2030-00-10T00:00:00Z", "must name a month from 01 to 12 (00 is none)"],
  ["2029-02-29T00:00:00Z", "must name a day of the month (2029-02 has no day 29)"],
  ["1900-02-29T00:00:00Z", "must name a day of the month (1900-02 has no day 29)"],
  ["2030-04-31T00:00:00Z", "must name a day of the month (2030-04 has no day 31)"],
  ["2030-01-00T00:00:00Z", "must name a day of the month (2030-01 has no day 00)"],
  ["2030-01-01T24:00:00Z", "must name a time of day"],
  ["2030-01-01T00:60:00Z", "must name a time of day"],
  ["2016-12-31T23:59:60Z", "must name a time of day"],
  ["2030-01-01T00:00:00+24:00", "must name a time of day"],
  ["0000-12-31T23:59:59Z", "must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z"],
  ["0001-01-01T00:30:00+01:00", "must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z"],
  ["9999-12-31T23:59:59-00:01", "must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z"],
])("%s is refused: %s", (value, reason) => {
  expect(timestampIssue(value)).toContain(reason);
  // Refused by check, top-level and nested, each naming its field by path.
  const found = failures({ expireTime: value, window: { startTime: value } });
  expect(found.map((f) => f.property)).toEqual(["expireTime", "window.startTime"]);
  for (const failure of found) expect(failure.reason).toContain(reason);
});

test("a refusal of the form shows what a timestamp looks like, offsets included", () => {
  expect(failures({ expireTime: "next week" })).toEqual([
    {
      property: "expireTime",
      reason: `must be an RFC 3339 time (a date, "T", a time with seconds and an optional fraction, then "Z" or an offset) such as ${EXAMPLE}`,
    },
  ]);
  expect(EXAMPLE).toContain("+02:00");
});

test("a value that is no string, or none, is refused naming the field", () => {
  expect(failures({ expireTime: 1_900_000_000 })).toEqual([
    { property: "expireTime", reason: "must be an RFC 3339 time (a string)" },
  ]);
  expect(failures({ expireTime: new Date(0) })).toEqual([
    { property: "expireTime", reason: "must be an RFC 3339 time (a string)" },
  ]);
  expect(failures({})).toEqual([{ property: "expireTime", reason: "is required" }]);
});
