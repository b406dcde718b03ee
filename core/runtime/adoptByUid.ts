/** The input with which a program names the one existing record a resource takes over (README, adoption). */
import type * as pulumi from "@pulumi/pulumi";

export interface AdoptByUid {
  /**
   * Take over exactly this existing record at create instead of creating one: it is read by its
   * uid and must sit under the declared parent with the values that cannot change in place; one
   * PATCH brings the others to the declared values (none when they match). For records no key
   * tells apart, such as two identical invites or subscriptions (an exported program names them
   * so). Never sent to the API, read only at create; the output `adopted` is then true.
   */
  adoptUid?: pulumi.Input<string>;
}
