/**
 * Names from any text: word boundaries kept in each language's spelling, non-ASCII text carried
 * (Latin transliterated, other scripts by code point), never lost, and unique once claimed.
 */
import { identifier, identifierWords, Names } from "./identifiers";
import { pythonIdentifier, PYTHON_NAMING } from "./pythonNames";

test("a text's words in ASCII: Latin letters without their marks, other scripts by code point", () => {
  expect(identifierWords("squad team-a ci")).toEqual(["squad", "team", "a", "ci"]);
  expect(identifierWords("Müller équipe Ærø straße Łódź")).toEqual(["Muller", "equipe", "AEro", "strasse", "Lodz"]);
  // Decomposed input reads as composed; compatibility forms as their letters.
  expect(identifierWords("u\u0308 ﬁle Ｂ ①")).toEqual(["u", "file", "B", "1"]);
  expect(identifierWords("東京")).toEqual(["u6771u4eac"]);
  expect(identifierWords("team東京2")).toEqual(["team", "u6771u4eac", "2"]);
  expect(identifierWords("서울 Αθήνα 😀")).toEqual(["uc11cuc6b8", "u0391u03b8u03aeu03bdu03b1", "u1f600"]);
  expect(identifierWords("-- ! --")).toEqual([]);
});

test("JavaScript and Python spell the same words, neither losing one", () => {
  const cases: Array<[string, string, string]> = [
    ["squad team-a ci", "squadTeamACi", "squad_team_a_ci"],
    ["team a b", "teamAB", "team_a_b"],
    ["team ü", "teamU", "team_u"],
    ["team 東京", "teamU6771u4eac", "team_u6771u4eac"],
    ["SSO admins", "sSOAdmins", "sso_admins"],
    ["platformGroup", "platformGroup", "platform_group"],
    ["2 fast", "n2Fast", "n2_fast"],
    ["!!", "record", "record"],
  ];
  for (const [text, javascript, python] of cases) {
    expect([text, identifier(text)]).toEqual([text, javascript]);
    expect([text, pythonIdentifier(text)]).toEqual([text, python]);
  }
});

test("claimed names keep the text they were spelled from, a number its own word", () => {
  const names = new Names(["platform"]);
  expect(names.claim(["squad team-a ci"])).toBe("squadTeamACi");
  expect(names.textOf("squadTeamACi")).toBe("squad team-a ci");
  expect(names.claim(["platform", "platform Group"])).toBe("platformGroup");
  expect(names.textOf("platformGroup")).toBe("platform Group");
  expect(names.claim(["squad team-a ci"])).toBe("squadTeamACi2");
  expect(names.textOf("squadTeamACi2")).toBe("squad team-a ci 2");
  // Python spells the same texts with its own rules.
  const python = new Names([], PYTHON_NAMING);
  expect(["squad team-a ci", "platform Group", "squad team-a ci 2"].map((t) => python.claim([t]))).toEqual([
    "squad_team_a_ci",
    "platform_group",
    "squad_team_a_ci_2",
  ]);
  // Different texts that read alike are told apart by number, never merged.
  expect([python.claim(["team u"]), python.claim(["team ü"])]).toEqual(["team_u", "team_u_2"]);
});
