/**
 * Kinds only some API versions serve (collections documented in v2beta1 alone): under another
 * version they are refused before any request, naming the setting that chose it, rather than
 * failing on the service's bare "not found" for the path.
 */
import { SettingsError } from "../common/errors";
import { ApiVersion, SETTING_SOURCES, resolveSettings } from "./settings";

/**
 * Why `what` cannot be used with the configured API version, or undefined when it can (or when
 * the settings cannot be read yet: the first request reports those, naming them).
 */
export function versionRefusal(what: string, versions: readonly ApiVersion[] | undefined): string | undefined {
  if (!versions) return undefined;
  let current: ApiVersion;
  try {
    current = resolveSettings().apiVersion;
  } catch (error) {
    if (error instanceof SettingsError) return undefined;
    throw error;
  }
  if (versions.includes(current)) return undefined;
  const { config, env } = SETTING_SOURCES.apiVersion;
  return (
    `${what} exist only in the ${versions.join(" and ")} API, but ${config} (${env}) is "${current}": ` +
    `set ${config} to ${versions.join(" or ")} for the stack that manages them`
  );
}
