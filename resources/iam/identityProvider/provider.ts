/**
 * The IdentityProvider provider. This module's exports ARE the provider object, so when the package is
 * installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/identityProvider/provider.js")`: a shim that loads the
 * package's current code at call time, so fixes reach refresh and destroy of old stacks, and no
 * config, token or machine path is captured in the state.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import { defineProvider } from "../../../core/runtime/lifecycle";
import identityProvider from "./description";

export = defineProvider(identityProvider);
