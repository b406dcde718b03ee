/**
 * How an exported program takes each record over on its first `up`: every resource adopts the
 * record it declares instead of creating one.
 */

/** The input that makes a create take over the record it finds instead of failing. */
export const ADOPT_INPUT = "adopt";
