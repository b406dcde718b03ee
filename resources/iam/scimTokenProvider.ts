/**
 * The ScimToken provider at the path stacks created before version 0.2 name as `__provider`: keep
 * it loadable forever; it re-exports the provider in the kind's folder.
 */
import provider = require("./scimToken/provider");
export = provider;
