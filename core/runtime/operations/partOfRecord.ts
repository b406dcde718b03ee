/**
 * Create, update and delete of a kind that is part of another kind's record (core/model/kind.ts,
 * `partOf`: an identity provider's SCIM token): its verbs alone, on the record its parent field
 * names, which is also the resource's id. Read, check and diff are the shared ones.
 */
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import type { RunSteps } from "../verbSteps";
import { Props, pick, stripUndefined } from "../../common/values";

type Writes = Pick<Lifecycle, "create" | "update" | "delete">;

export function partOfRecord({ kind, registerSecrets }: KindContext, runSteps: RunSteps): Writes {
  const verbs = kind.verbs ?? {};
  const recordNoun = kind.partOf ?? "record";
  return {
    async create(inputs: Props) {
      registerSecrets(inputs);
      const uid = String(inputs[kind.parentField]);
      const outs = await runSteps(verbs.create ?? [], {
        operation: "creating",
        uid,
        what: kind.label(inputs),
        inputs,
        state: {},
        outputs: stripUndefined(pick(inputs, kind.declared)),
      });
      return { id: uid, outs: stripUndefined(outs ?? {}) };
    },

    async update(id, olds: Props, news: Props) {
      registerSecrets(olds, news);
      // The state's outputs with the program's own inputs as they are now (one it no longer sets
      // is gone); the inputs the record answers keep the service's values until a step sets them.
      const { __provider: _p, ...state } = olds;
      for (const field of kind.localInputs) delete state[field];
      const before = { ...state, ...pick(news, [kind.parentField, ...kind.localInputs]) };
      const outs = await runSteps(verbs.update ?? [], {
        operation: "updating",
        uid: id,
        what: kind.label({ ...news, uid: id }),
        inputs: news,
        state: olds,
        outputs: before,
        notFound: {
          hint: `The ${recordNoun} no longer exists: run \`pulumi refresh\` to drop the ${kind.noun} from the state`,
        },
      });
      return { outs: stripUndefined(outs ?? before) };
    },

    async delete(id, props: Props = {}) {
      registerSecrets(props);
      // The record gone takes this part of it along: deleting is then done.
      await runSteps(verbs.delete ?? [], {
        operation: "deleting",
        uid: id,
        what: kind.label({ ...props, uid: id }),
        inputs: props,
        state: props,
        outputs: props,
        notFound: "gone",
      });
    },
  };
}
