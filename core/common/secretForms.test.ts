/**
 * A registered secret is redacted in every spelling a server may echo it in: as it is,
 * JSON-escaped by any writer (once or twice), URL-encoded, base64 (also inside HTTP Basic
 * credentials). Text that does not hold it is left alone, and no text makes the scan slow.
 */
import { formsOf, hideForms } from "./secretForms";
import { spellingsOf } from "../../tests/support/secretSpellings";
import { redact, registerSecret, safeMessage } from "./messages";

/** Quote, backslash, tab, slash, space, plus, percent, `<`, `&`, non-ASCII and an astral character. */
const SECRET = 'cl"ient\\se\tcr/et +%<&é😀-z9';

const SPELLINGS = spellingsOf(SECRET);

beforeAll(() => registerSecret(SECRET));

test.each(SPELLINGS)("%s: redacted from a message", (_label, spelled) => {
  const message = `INVALID_ARGUMENT: bad credential "${spelled}" (sent as ${spelled}) for client platform`;
  const clean = redact(message);
  expect(clean).not.toContain(spelled);
  expect(clean).toContain("[redacted]");
  expect(clean).toMatch(/^INVALID_ARGUMENT: bad credential "/);
  expect(clean).toMatch(/for client platform$/);
  // safeMessage (what every error goes through) redacts the same way.
  expect(safeMessage(message)).toBe(clean);
});

test("every spelling at once, in a JSON body echoed whole", () => {
  const body = JSON.stringify({ error: "invalid_client", echoed: SPELLINGS.map(([, s]) => s) });
  const clean = redact(`the server said: ${body}`);
  for (const [, spelled] of SPELLINGS) expect(clean).not.toContain(spelled);
  expect(clean).toContain('"error":"invalid_client"');
});

test("text that does not hold the secret is left alone", () => {
  const near = [
    SECRET.slice(0, -1),
    SECRET.replace("é", "e"),
    JSON.stringify(SECRET.slice(1)).slice(1, -1),
    encodeURIComponent(SECRET.slice(2)),
    "plain words and a base64 value aGVsbG8gd29ybGQ=",
  ];
  for (const text of near) expect(redact(text)).toBe(text);
});

test("values shorter than 8 characters are not secrets: ordinary words stay readable", () => {
  registerSecret("short");
  expect(redact("a short message")).toBe("a short message");
});

test("a secret made of escape characters cannot make a long text slow to scan", () => {
  const secret = `${"\\".repeat(40)}"x`;
  const forms = formsOf(secret);
  const hostile = "\\".repeat(100_000);
  // A backtracking pattern would take longer than the test's timeout here; these take milliseconds.
  // (Compared as booleans: a failure must not print 100,000 backslashes.)
  expect(hideForms(hostile, forms, "[redacted]") === hostile).toBe(true);
  const echoed = hideForms(`${JSON.stringify(secret)} ${hostile}`, forms, "[redacted]");
  expect(echoed === `"[redacted]" ${hostile}`).toBe(true);
});

test("registering a secret again changes nothing", () => {
  const secret = "registered-once-0123456789";
  registerSecret(secret);
  const before = redact(`x ${encodeURIComponent(secret)} y`);
  for (let i = 0; i < 10_000; i++) registerSecret(secret);
  expect(redact(`x ${encodeURIComponent(secret)} y`)).toBe(before);
  expect(before).toBe("x [redacted] y");
});
