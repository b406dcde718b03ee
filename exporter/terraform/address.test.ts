/**
 * Addresses as Terraform writes them (HCL-quoted for_each keys), the module path read back from
 * them, the words a migrated resource's name is made from, and a shell word for `terraform state rm`.
 */
import { hclQuoted, instanceAddress, moduleSteps, nameWords, shellWord } from "./address";

test("a for_each key is written as HCL's quoted template, as Terraform's addresses have it", () => {
  expect(hclQuoted("payments")).toBe('"payments"');
  expect(hclQuoted("")).toBe('""');
  expect(hclQuoted('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
  expect(hclQuoted("line\nbreak\r\ttab")).toBe('"line\\nbreak\\r\\ttab"');
  // A template introducer is doubled; a lone $ or % is not.
  expect(hclQuoted("${x} %{y} $ % $$")).toBe('"$${x} %%{y} $ % $$"');
  expect(hclQuoted("$${x}")).toBe('"$$${x}"');
  // Not printable to Go's unicode.IsPrint: escaped; letters of any script, symbols and emoji are kept.
  expect(hclQuoted("\u0000\u007f\u00a0\u2028\u200b")).toBe('"\\u0000\\u007f\\u00a0\\u2028\\u200b"');
  expect(hclQuoted("équipe 日本 😀")).toBe('"équipe 日本 😀"');
  expect(hclQuoted("\u{e0001}")).toBe('"\\U000e0001"');
});

test("an instance's address: module, data., type, name and key", () => {
  expect(instanceAddress({ module: "", mode: "managed", type: "chainguard_group", name: "team" })).toBe(
    "chainguard_group.team",
  );
  expect(
    instanceAddress({ module: 'module.a["k"].module.b', mode: "managed", type: "chainguard_role", name: "r", key: 0 }),
  ).toBe('module.a["k"].module.b.chainguard_role.r[0]');
  expect(instanceAddress({ module: "", mode: "data", type: "chainguard_group", name: "root", key: "x y" })).toBe(
    'data.chainguard_group.root["x y"]',
  );
});

test("a module address reads back into its steps, keys unescaped; anything else is refused", () => {
  expect(moduleSteps("module.teams")).toEqual([{ name: "teams" }]);
  expect(moduleSteps('module.region["eu-west"].module.accounts[2]')).toEqual([
    { name: "region", key: "eu-west" },
    { name: "accounts", key: 2 },
  ]);
  const key = 'a "q" \\ ${x} é\n';
  expect(moduleSteps(`module.m[${hclQuoted(key)}]`)).toEqual([{ name: "m", key }]);
  for (const bad of ["teams", "module.", 'module.a["k"', "module.a.b", "module.a[x]"])
    expect(() => moduleSteps(bad)).toThrow("is not a Terraform module address");
});

test("a resource's name words: each module's name and key, its name and key", () => {
  expect(nameWords("module.teams", "team", "payments")).toBe("teams team payments");
  expect(nameWords("", "ci", 0)).toBe("ci 0");
  expect(nameWords('module.region["eu"].module.accounts', "this", undefined)).toBe("region eu accounts this");
});

test("a shell word: bare when safe, else single-quoted", () => {
  expect(shellWord("chainguard_group.team")).toBe("chainguard_group.team");
  expect(shellWord('module.teams.chainguard_group.team["payments"]')).toBe(
    `'module.teams.chainguard_group.team["payments"]'`,
  );
  expect(shellWord(`a["it's"]`)).toBe(`'a["it'\\''s"]'`);
});
