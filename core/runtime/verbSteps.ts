/**
 * Runs a kind's verbs (core/model/kind.ts, Verb) as steps of one create, update or delete: each
 * a POST of a custom method on the record, in order, within the operation's call deadline (the
 * client's requests belong to it), its answer's secrets registered. A step that fails after
 * something was written in this call (an earlier step, or the operation's own POST or PATCH)
 * keeps the outputs so far in the state (PartlyWrittenError), so nothing written is lost and
 * the next `pulumi up` finishes; one that fails first is a plain failure.
 */
import { isNotFound } from "../common/errors";
import type { Verb, VerbStep } from "../model/kind";
import type { KindContext } from "./kindContext";
import { PartlyWrittenError, ResourceError, failed, messageOf } from "./resourceError";
import { Props, isObject, stripUndefined } from "../common/values";

export interface StepsCall {
  /** The operation's word in messages: "creating", "updating", "deleting". */
  operation: string;
  /** The uid of the record the verbs act on, and the resource's id. */
  uid: string;
  what: string;
  inputs: Props;
  state: Props;
  outputs: Props;
  /** What the operation wrote before its steps ("the group was created"), if anything. */
  written?: string;
  /** A record gone (NOT_FOUND) is the resource gone (a delete), or fails with this hint. */
  notFound?: "gone" | { hint: string };
}

/** The outputs after the steps, or undefined when a step found the record gone and the call said that is the end. */
export type RunSteps = (verbs: readonly Verb[], call: StepsCall) => Promise<Props | undefined>;

export function verbSteps({ kind, client, requests, records, registerSecrets }: KindContext): RunSteps {
  const withDefaults = (inputs: Props) => (kind.inputDefaults ? { ...kind.inputDefaults, ...inputs } : inputs);
  return async (verbs, call) => {
    let outputs = call.outputs;
    const ran: string[] = [];
    let written = call.written;
    let current: Promise<Props> | undefined;
    const readCurrent = () => (current ??= requests.get(call.uid).then((record) => records.outputsOf(record)));
    const inputs = withDefaults(call.inputs);
    for (const verb of verbs) {
      const step: VerbStep = { inputs, state: call.state, outputs, ran: [...ran], current: readCurrent };
      if (verb.runs && !verb.runs(step)) continue;
      try {
        const answer = await client().request({
          method: "POST",
          domain: kind.domain,
          path: requests.itemPath(call.uid),
          verb: verb.name,
          body: await verb.body(step),
        });
        if (isObject(answer)) registerSecrets(answer);
        if (verb.outputs) outputs = verb.outputs(step, answer);
        registerSecrets(outputs);
      } catch (error) {
        if (isNotFound(error) && call.notFound === "gone") return undefined;
        if (written !== undefined)
          throw new PartlyWrittenError(
            `${call.operation} ${call.what}: ${written}, but ${verb.name} failed: ${messageOf(error)}. ` +
              `The ${kind.noun} is kept in the state as far as it was written; run \`pulumi up\` again to finish`,
            call.uid,
            stripUndefined({ ...outputs, __provider: call.inputs.__provider }),
            error,
          );
        const doing = verb.doing ?? call.operation;
        const explained = verb.explainFailure?.(error);
        if (explained) throw new ResourceError(`${doing} ${call.what} failed: ${explained}`, { cause: error });
        const hint = isNotFound(error) && isObject(call.notFound) ? call.notFound.hint : undefined;
        throw failed(doing, call.what, error, hint);
      }
      ran.push(verb.name);
      written = verb.done ?? `${verb.name} succeeded`;
    }
    return outputs;
  };
}
