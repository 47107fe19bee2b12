// The linter of `npm test`: typescript-eslint's recommended rules, plus three that need the type checker (a floating
// or misused promise, a switch over a union that misses a member) in this promise-heavy code. The type information
// comes from tsconfig.json through the project service (one program for every file).
// Formatting is prettier's (.prettierrc.json); the rules below are the project's deliberate exceptions.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_`-prefixed names are deliberately unused (a callback's position, a destructured rest)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // control characters are what the token, header and file-name checks look for
      'no-control-regex': 'off',
      // `ok && act()` and `c ? a() : b()` as statements are the house style of a few parsers
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // a `default:` does not count: a new member of the union must be handled where it is switched on
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // tests and benchmarks reach into library internals and fixtures
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
