/**
 * The real-CLI stories' stacks: tools/pulumi-cli (the CLI found or built, stacks driven by the
 * Automation API), which the demo, the walk-through's commands and the benchmarks share.
 */
export * from "../../tools/pulumi-cli/stack";
export { CLI_DIR_VARIABLE, CLI_UNAVAILABLE_VARIABLE, pulumiCliDir } from "../../tools/pulumi-cli/find";
