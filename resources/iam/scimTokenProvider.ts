/**
 * Where stacks created before version 0.2 store the ScimToken provider (`__provider` names this
 * path): it stays loadable forever, as the provider the kind's folder now holds.
 */
import provider = require("./scimToken/provider");
export = provider;
