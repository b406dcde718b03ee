/**
 * Both forms of a state read into the same instances (tests/support/terraformState.ts writes them
 * as Terraform does): modules with keys, count and for_each keys, an aliased provider configured
 * in a module, data sources, tainted and deposed objects; sensitive values dropped as they are
 * read, by the state's own marks.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { showJson, TfResource, tfstate } from "../../tests/support/terraformState";
import { decodeState, providerOfConfiguration, readState, readStateFile, StateFormatError } from "./state";

const RESOURCES: TfResource[] = [
  { mode: "data", type: "chainguard_group", name: "root", instances: [{ attributes: { id: "r" } }] },
  {
    module: 'module.region["eu"].module.teams',
    type: "chainguard_group",
    name: "team",
    alias: "eu",
    instances: [
      { key: 'pay"ments', attributes: { id: "r/a", name: "a" } },
      { key: "ledger", attributes: { id: "r/b", name: "b" }, tainted: true },
    ],
  },
  {
    type: "chainguard_identity_provider",
    name: "sso",
    instances: [
      {
        attributes: { id: "r/i", oidc: { issuer: "https://x", client_secret: "s3cret" } },
        sensitive: [["oidc", "client_secret"]],
      },
      { attributes: { id: "r/old" }, deposed: "00aa11bb" },
    ],
  },
  {
    type: "chainguard_group_invite",
    name: "i",
    instances: [{ key: 3, attributes: { id: "r/v", code: "c0de" }, sensitive: [["code"]] }],
  },
  {
    type: "random_pet",
    name: "p",
    provider: "registry.terraform.io/hashicorp/random",
    instances: [{ attributes: { id: "pet" } }],
  },
];

const summary = (text: string) =>
  readState(text, "f")
    .instances.map((i) => ({ ...i }))
    .sort((a, b) => (a.address + (a.deposed ?? "") < b.address + (b.deposed ?? "") ? -1 : 1));

test("a terraform.tfstate and its terraform show -json read into the same instances", () => {
  const fromState = summary(tfstate(RESOURCES));
  expect(summary(showJson(RESOURCES))).toEqual(fromState);
  expect(fromState.map((i) => [i.address, i.module, i.mode, i.key, i.provider, i.tainted, i.deposed])).toEqual([
    [
      "chainguard_group_invite.i[3]",
      "",
      "managed",
      3,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      "chainguard_identity_provider.sso",
      "",
      "managed",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      "chainguard_identity_provider.sso",
      "",
      "managed",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      "00aa11bb",
    ],
    [
      "data.chainguard_group.root",
      "",
      "data",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      'module.region["eu"].module.teams.chainguard_group.team["ledger"]',
      'module.region["eu"].module.teams',
      "managed",
      "ledger",
      "registry.terraform.io/chainguard-dev/chainguard",
      true,
      undefined,
    ],
    [
      'module.region["eu"].module.teams.chainguard_group.team["pay\\"ments"]',
      'module.region["eu"].module.teams',
      "managed",
      'pay"ments',
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    ["random_pet.p", "", "managed", undefined, "registry.terraform.io/hashicorp/random", false, undefined],
  ]);
});

test("sensitive values are gone from what is read, in both forms", () => {
  for (const text of [tfstate(RESOURCES), showJson(RESOURCES)]) {
    const instances = readState(text, "f").instances;
    const sso = instances.find((i) => i.address === "chainguard_identity_provider.sso" && !i.deposed)!;
    expect(sso.attributes).toEqual({ id: "r/i", oidc: { issuer: "https://x" } });
    expect(instances.find((i) => i.type === "chainguard_group_invite")!.attributes).toEqual({ id: "r/v" });
    expect(JSON.stringify(instances)).not.toMatch(/s3cret|c0de/);
  }
});

test("a resource's provider configuration names its registry address, whatever its module and alias", () => {
  const vendor = "registry.terraform.io/chainguard-dev/chainguard";
  expect(providerOfConfiguration(`provider["${vendor}"]`)).toBe(vendor);
  expect(providerOfConfiguration(`provider["${vendor}"].eu`)).toBe(vendor);
  expect(
    providerOfConfiguration(`module.a["k"].module.b.provider["Registry.Terraform.io/Chainguard-Dev/Chainguard"].x`),
  ).toBe(vendor);
  expect(providerOfConfiguration("provider.chainguard")).toBe("registry.terraform.io/-/chainguard");
  expect(providerOfConfiguration("module.m.provider.aws.west")).toBe("registry.terraform.io/-/aws");
});

test("an empty state in either form has no instances", () => {
  expect(readState(JSON.stringify({ format_version: "1.0" }), "f").instances).toEqual([]);
  expect(readState(tfstate([]), "f").instances).toEqual([]);
});

describe("a state file's bytes", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-state-bytes-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const GROUPS: TfResource[] = [
    {
      type: "chainguard_group",
      name: "team",
      instances: [
        { key: "payments", attributes: { id: "r/a", name: "Zahlungen" } },
        { key: "mueller", attributes: { id: "r/b", name: "Müller team", description: "für Müller" } },
      ],
    },
  ];
  const write = (name: string, bytes: Uint8Array | string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const refusal = (file: string) => {
    try {
      readStateFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(StateFormatError);
      return (error as Error).message;
    }
    throw new Error(`${file} was read`);
  };
  /** What Latin-1 writes: one byte a character, `ü` as 0xFC. */
  const latin1 = (text: string) => Buffer.from(text, "latin1");
  const utf16be = (text: string) => Buffer.from(text, "utf16le").swap16();

  test("UTF-8 with or without a byte order mark reads alike, in both forms", () => {
    for (const text of [tfstate(GROUPS), showJson(GROUPS)]) {
      const plain = readStateFile(write("plain.json", text));
      const marked = readStateFile(
        write("bom.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
      );
      expect(marked).toEqual(plain);
      expect(plain.instances.map((i) => i.attributes.name).sort()).toEqual(["Müller team", "Zahlungen"]);
      // Text already decoded may start with the mark too.
      expect(readState(`\uFEFF${text}`, "f")).toEqual(plain);
    }
  });

  test("Latin-1 is refused by the offset of its first byte that is not UTF-8, the instance and the attribute", () => {
    const text = tfstate(GROUPS);
    const file = write("latin1.tfstate", latin1(text));
    const offset = Buffer.from(text.slice(0, text.indexOf("ü"))).length;
    const before = text.slice(0, text.indexOf("ü")).split("\n");
    const message = refusal(file);
    expect(message).toContain(
      `${file} is not UTF-8: the byte at offset ${offset} (line ${before.length}, column ` +
        `${before[before.length - 1].length + 1}), in the attribute name of chainguard_group.team["mueller"], is no UTF-8 character.`,
    );
    expect(message).toContain("iconv -f LATIN1 -t UTF-8");
    // The show -json form names the same instance and attribute.
    expect(refusal(write("latin1.json", latin1(showJson(GROUPS))))).toContain(
      'in the attribute name of chainguard_group.team["mueller"]',
    );
  });

  test("a for_each key, or a nested value, that is not UTF-8 is named by where it is", () => {
    const keyed: TfResource[] = [
      { type: "chainguard_group", name: "team", instances: [{ key: "ü", attributes: { id: "r/a", name: "a" } }] },
    ];
    expect(refusal(write("key.tfstate", latin1(tfstate(keyed))))).toContain(
      'in the key of chainguard_group.team["\uFFFD"]',
    );
    const nested: TfResource[] = [
      {
        type: "chainguard_identity",
        name: "ci",
        instances: [{ attributes: { id: "r/i", claim_match: { issuer: "https://x", claims: { é: "y" } } } }],
      },
    ];
    expect(refusal(write("nested.json", latin1(showJson(nested))))).toContain(
      "in the attribute claim_match.claims.\uFFFD of chainguard_identity.ci",
    );
  });

  test("a replacement character the state holds itself is not taken for the bad byte", () => {
    const text = tfstate([
      {
        type: "chainguard_group",
        name: "team",
        instances: [
          { key: "a", attributes: { id: "r/a", name: "already \uFFFD here" } },
          { key: "b", attributes: { id: "r/b", name: "M@@ller" } },
        ],
      },
    ]);
    const [head, tail] = text.split("@@");
    const file = write("mixed.tfstate", Buffer.concat([Buffer.from(head), Buffer.from([0xfc]), Buffer.from(tail)]));
    expect(refusal(file)).toContain(
      `the byte at offset ${Buffer.from(head).length} (line ${head.split("\n").length}, column ` +
        `${head.split("\n").pop()!.length + 1}), in the attribute name of chainguard_group.team["b"],`,
    );
  });

  test("a sequence cut short names its lead byte; bytes of no state are named by offset alone", () => {
    // 0xE9 (Latin-1 é) leads a three-byte sequence that the next byte breaks.
    const cut = Buffer.concat([Buffer.from('{"version": 4, "x": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    expect(refusal(write("cut.tfstate", cut))).toMatch(
      /is not UTF-8: the byte at offset 24 \(line 1, column 25\), in "x", is/,
    );
    const junk = Buffer.from([0x7b, 0x0a, 0x20, 0xff, 0x0a]);
    expect(refusal(write("junk.tfstate", junk))).toMatch(
      /is not UTF-8: the byte at offset 3 \(line 2, column 2\) is no UTF-8/,
    );
    const last = Buffer.concat([Buffer.from('{"version": 4}'), Buffer.from([0xc3])]);
    expect(refusal(write("last.tfstate", last))).toContain("the byte at offset 14 (line 1, column 15)");
  });

  test("the offset named is the first bad sequence's, wherever it falls (seeded bytes across the 64 KiB chunk edge)", () => {
    /** The first byte of the first sequence that is not UTF-8, by the Unicode standard's table 3-7, or -1. */
    const firstBad = (b: Uint8Array): number => {
      for (let i = 0; i < b.length;) {
        const c = b[i];
        if (c < 0x80) {
          i++;
          continue;
        }
        const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
        if (need === 0) return i;
        for (let k = 1; k <= need; k++) {
          const d = b[i + k];
          const low = k === 1 && c === 0xe0 ? 0xa0 : k === 1 && c === 0xf0 ? 0x90 : 0x80;
          const high = k === 1 && c === 0xed ? 0x9f : k === 1 && c === 0xf4 ? 0x8f : 0xbf;
          if (d === undefined || d < low || d > high) return i;
        }
        i += need + 1;
      }
      return -1;
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ["a", "ü", "東", "😀"].map((t) => Buffer.from(t));
    const junk = [0x80, 0xbf, 0xc0, 0xc3, 0xe0, 0xe9, 0xed, 0xf0, 0xf4, 0xf5, 0xff];
    let checked = 0;
    for (let round = 0; round < 30; round++) {
      const parts = [Buffer.from("{   ")];
      for (let size = 4; size < (1 << 16) - 8 + Math.floor(random() * 16); size += parts[parts.length - 1].length)
        parts.push(pieces[Math.floor(random() * pieces.length)]);
      const bytes = Buffer.concat(parts);
      const at = 4 + Math.floor(random() * (bytes.length - 4));
      for (let k = Math.floor(random() * 3); k >= 0 && at + k < bytes.length; k--)
        bytes[at + k] = junk[Math.floor(random() * junk.length)];
      const expected = firstBad(bytes);
      if (expected === -1) continue;
      checked++;
      expect(() => decodeState(bytes, "f")).toThrow(`f is not UTF-8: the byte at offset ${expected} (`);
    }
    expect(checked).toBeGreaterThan(20);
  });

  test("UTF-16 is named as such, either byte order, with or without a byte order mark, and how to re-save it", () => {
    const text = tfstate(GROUPS);
    const cases: Array<[string, Buffer, string]> = [
      [
        "le-bom",
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
        "little-endian, with a byte order mark",
      ],
      ["be-bom", Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]), "big-endian, with a byte order mark"],
      ["le", Buffer.from(text, "utf16le"), "little-endian, without a byte order mark"],
      ["be", utf16be(text), "big-endian, without a byte order mark"],
    ];
    for (const [name, bytes, order] of cases) {
      const file = write(`${name}.tfstate`, bytes);
      const message = refusal(file);
      expect(message).toContain(`${file} is UTF-16 (${order}), not UTF-8`);
      expect(message).toContain("Out-File -Encoding utf8");
      expect(message).toContain("iconv -f UTF-16 -t UTF-8");
    }
  });

  test("a file that cannot be read is named", () => {
    expect(() => readStateFile(path.join(dir, "none.tfstate"))).toThrow(
      `cannot read the state ${path.join(dir, "none.tfstate")}`,
    );
  });
});
