/**
 * Custom verbs as steps of create, update and delete (core/runtime/verbSteps.ts), on a kind of a
 * collection, with a scripted client: where they run, what they send, what a failure keeps.
 * (A kind that is part of another's record, iam.ScimToken, runs through the real host in
 * resources/iam/scimToken/scimToken.test.ts.)
 */
import { ApiClient, ApiRequest } from "../transport/client";
import { ApiError, Code } from "../common/errors";
import type { ResourceKind, Verb } from "../model/kind";
import { defineProvider } from "./lifecycle";
import { PartlyWrittenError } from "./resourceError";
import { isObject, shown } from "../common/values";

const seal: Verb = {
  name: "seal",
  done: "the seal was set",
  runs: (step) => step.inputs.sealed !== step.state.sealed,
  body: async (step) => ({ sealed: step.inputs.sealed, etag: (await step.current()).etag }),
  outputs: (step, answer) => ({
    ...step.outputs,
    sealed: step.inputs.sealed,
    etag: isObject(answer) ? answer.etag : "",
  }),
};
const unseal: Verb = { name: "unseal", doing: "unsealing", body: () => ({}) };

const kind: ResourceKind = {
  typeName: "Box",
  noun: "box",
  domain: "iam",
  collection: "boxes",
  message: "iam.Group",
  inputs: (f) =>
    f.z.strictObject({ parentUid: f.uid("a group"), name: f.z.string(), sealed: f.z.boolean().optional() }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name"],
  localInputs: ["sealed"],
  inputDefaults: { sealed: true },
  replaceOn: ["parentUid"],
  label: (props) => `box "${shown(props.name ?? props.uid)}"`,
  alreadyExistsHint: "rename it",
  verbs: { create: [seal], update: [seal], delete: [unseal] },
};

/** A client answering from a script, one answer per request, recording each request. */
function scripted(answers: Array<(req: ApiRequest) => unknown>): ApiClient & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async request<T>(req: ApiRequest): Promise<T> {
      sent.push(`${req.method} ${req.path}${req.verb ? `:${req.verb}` : ""} ${JSON.stringify(req.body ?? null)}`);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected request ${req.method} ${req.path}`);
      return answer(req) as T;
    },
  };
}
const failing =
  (code: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  () => {
    throw new ApiError({ code, httpStatus: 400, method: "POST", path: "/p", serviceMessage: "no", ...extra });
  };
const record = { uid: "g/b", name: "b", etag: "e1" };

test("create: the POST, then the verbs in order, the record read once for what they need; the default input applies", async () => {
  const client = scripted([() => record, () => record, () => ({ etag: "e2" })]);
  const provider = defineProvider(kind, () => client);
  const created = await provider.create({ parentUid: "g", name: "b" });
  expect(client.sent).toEqual([
    'POST boxes/g {"name":"b"}',
    "GET boxes/g/b null",
    'POST boxes/g/b:seal {"sealed":true,"etag":"e1"}',
  ]);
  expect(created).toEqual({ id: "g/b", outs: { uid: "g/b", name: "b", etag: "e2", parentUid: "g", sealed: true } });
  expect(provider.kind.verbs?.create).toEqual([seal]);
});

test("a verb failing after the POST keeps the record in the state; failing first is a plain failure", async () => {
  const afterPost = scripted([() => record, () => record, failing(Code.UNAVAILABLE)]);
  const error = await defineProvider(kind, () => afterPost)
    .create({ parentUid: "g", name: "b" })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PartlyWrittenError);
  expect((error as PartlyWrittenError).id).toBe("g/b");
  expect((error as PartlyWrittenError).properties).toMatchObject({ uid: "g/b", name: "b" });
  expect((error as Error).message).toMatch(/^creating box "b": the box was created, but seal failed: /);

  // Nothing changed but the seal: no PATCH, and the seal's failure is the update's.
  const olds = { uid: "g/b", parentUid: "g", name: "b", sealed: true, etag: "e1" };
  const update = scripted([() => record, failing(Code.FAILED_PRECONDITION)]);
  await expect(
    defineProvider(kind, () => update).update("g/b", olds, { parentUid: "g", name: "b", sealed: false }),
  ).rejects.toThrow(/^updating box "b" failed: FAILED_PRECONDITION/);
  expect(update.sent).toEqual(["GET boxes/g/b null", 'POST boxes/g/b:seal {"sealed":false,"etag":"e1"}']);
});

test("diff and update see the defaults: an unset input that means the state's value is no change, and no step runs", async () => {
  const olds = { uid: "g/b", parentUid: "g", name: "b", sealed: true, etag: "e1" };
  const client = scripted([]);
  const provider = defineProvider(kind, () => client);
  expect(await provider.diff("g/b", olds, { parentUid: "g", name: "b" })).toMatchObject({ changes: false });
  expect(await provider.diff("g/b", olds, { parentUid: "g", name: "b", sealed: false })).toMatchObject({
    changes: true,
  });
  expect(await provider.update("g/b", olds, { parentUid: "g", name: "b" })).toEqual({
    outs: { uid: "g/b", parentUid: "g", name: "b", etag: "e1" },
  });
  expect(client.sent).toEqual([]);
});

test("delete: the verbs before the DELETE; a record they find gone needs no DELETE; their failure names them", async () => {
  const props = { uid: "g/b", parentUid: "g", name: "b" };
  const client = scripted([() => ({}), () => ({})]);
  await defineProvider(kind, () => client).delete("g/b", props);
  expect(client.sent).toEqual(["POST boxes/g/b:unseal {}", "DELETE boxes/g/b null"]);

  // The service says which record is missing: the box itself.
  const gone = scripted([failing(Code.NOT_FOUND, { askedUid: "g/b", resourceName: "g/b" })]);
  await defineProvider(kind, () => gone).delete("g/b", props);
  expect(gone.sent).toEqual(["POST boxes/g/b:unseal {}"]);

  const refused = scripted([failing(Code.PERMISSION_DENIED)]);
  await expect(defineProvider(kind, () => refused).delete("g/b", props)).rejects.toThrow(/^unsealing box "b" failed: /);
});
