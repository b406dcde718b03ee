import { SETTINGS } from "../../../core/transport/settings";
import { SETTINGS_BEGIN, SETTINGS_END, settingsTable, withSettingsTable } from "./settingsTable";

test("the settings table has a row per setting of core/transport/settings.ts, a new one included, with its key, variable, default and rule", () => {
  const table = settingsTable({
    ...SETTINGS,
    newSetting: {
      config: "platform:newSetting",
      env: "PLATFORM_NEW_SETTING",
      defaultValue: "4",
      rule: "a whole number | from 1",
      check: () => undefined,
      doc: "A setting added to the table.",
    },
  });
  const rows = table.split("\n").filter((line) => line.startsWith("| `platform:"));
  expect(rows).toHaveLength(Object.keys(SETTINGS).length + 1);
  expect(rows).toContain(
    "| `platform:newSetting` | `PLATFORM_NEW_SETTING` | `4` | a whole number \\| from 1 | A setting added to the table. |",
  );
  expect(rows).toContain(
    "| `platform:token` (secret) | `PLATFORM_TOKEN` | — | the token alone, without whitespace | A static API token. |",
  );
});

test("the table goes between the page's markers, and a page without them is refused", () => {
  const page = `before\n${SETTINGS_BEGIN}\nold\n${SETTINGS_END}\nafter\n`;
  expect(withSettingsTable(page, "TABLE")).toBe("before\nTABLE\nafter\n");
  expect(() => withSettingsTable("no markers", "TABLE")).toThrow("lacks the settings table's markers");
});
