/**
 * Where stacks created before version 0.2 store the Identity provider (`__provider` names this
 * path): it stays loadable forever, as the provider the kind's folder now holds.
 * It is the *Identity* kind's, despite the name (the IdentityProvider kind's was idpProvider.ts).
 */
import provider = require("./identity/provider");
export = provider;
