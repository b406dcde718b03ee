/**
 * The Identity provider at the path stacks created before version 0.2 name as `__provider`: keep it
 * loadable forever; it re-exports the provider in the kind's folder.
 * It is the *Identity* kind's, despite the name (the IdentityProvider kind's is idpProvider.ts).
 */
import provider = require("./identity/provider");
export = provider;
