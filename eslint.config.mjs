// typescript-eslint's recommended type-aware rules over everything tsc compiles.
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      ".work/",
      "**/node_modules/",
      "tests/**/programs/",
      "tools/**/programs/",
      "examples/*/",
      "sdk/",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Dynamic-provider methods and test doubles are async because their interfaces return
      // promises, whether or not a given one awaits anything.
      "@typescript-eslint/require-await": "off",
      // `import x = require("./kindProvider")` is how a resource class names its provider module.
      "@typescript-eslint/no-require-imports": ["error", { allowAsImport: true }],
      "max-len": [
        "error",
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Tests and the tools that drive the host read answers as untyped JSON and gRPC structs on purpose.
    files: ["**/*.test.ts", "tests/**/*.ts", "tools/**/*.ts", "bench/**/*.ts", "examples/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/unbound-method": "off",
      // Staged packages and compiled programs are loaded by path at run time.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
