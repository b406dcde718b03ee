/**
 * The import id rules of every kind the kind list holds, without the CLI: a kind whose uid tells
 * its parent takes the uid whole (a child's uid has slashes of its own), a kind whose uid does
 * not (a custom role's) takes `<parent>/<uid>`, and a kind with outputs answered only at create
 * is refused. The real-CLI story (import.realCli.test.ts) runs the same rules end to end.
 */
import { importIdOf, importStart, importable } from "./imports";
import { describedKinds, typeTokenOf } from "./kinds";

const kinds = describedKinds();
const byType = (typeName: string) => kinds.find((k) => k.typeName === typeName)!;
const CHILD = "org/team/r0";

describe("import ids", () => {
  test.each(kinds.filter((k) => importable(k) && !k.placedByParent).map((k) => [typeTokenOf(k), k] as const))(
    "%s takes a record's uid whole, with no parent of its own in the state",
    (_token, kind) => {
      expect(importStart(kind, CHILD)).toEqual({ id: CHILD, state: {} });
      expect(importIdOf(kind, CHILD, { [kind.parentField]: "org/team" })).toBe(CHILD);
    },
  );

  test("the kinds whose uid is one segment are roles alone; a role's import id is its group's uid, a slash, its own", () => {
    expect(kinds.filter((k) => k.placedByParent).map((k) => k.typeName)).toEqual(["Role"]);
    const role = byType("Role");
    const id = importIdOf(role, "a1b2", { parentUid: "org/team" });
    expect(id).toBe("org/team/a1b2");
    expect(importStart(role, id)).toEqual({ id: "a1b2", state: { parentUid: "org/team" } });
    expect(() => importStart(role, "a1b2")).toThrow(
      'a role\'s uid does not tell where it is defined: import it as <parentUid>/<uid> (the uid of the record of groups it belongs to, a slash, then its own uid); got "a1b2"',
    );
    expect(() => importStart(role, "org/")).toThrow("import it as <parentUid>/<uid>");
  });

  test("a kind with outputs answered only at create, or part of another record, is refused saying why", () => {
    expect(kinds.filter((k) => !importable(k)).map((k) => k.typeName)).toEqual(["GroupInvite", "ScimToken"]);
    expect(() => importStart(byType("GroupInvite"), CHILD)).toThrow(
      "a group invite cannot be imported: its code is answered only when it is created",
    );
    expect(() => importStart(byType("ScimToken"), CHILD)).toThrow(/cannot be imported: .*; declare a new one instead/);
  });
});
