/**
 * The Group provider at the path stacks created before version 0.2 name as `__provider`: keep it
 * loadable forever; it re-exports the provider in the kind's folder.
 */
import provider = require("./group/provider");
export = provider;
