// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'docs-api/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The pure core must not reach the network, the clock, or Node-only modules.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'fetch', 'setTimeout', 'setInterval', 'process', 'Buffer'],
      'no-restricted-imports': ['error', { patterns: ['node:*', '../edge/*', '../beacon/*', '../rest/*', '../emulator/*', '../cli/*'] }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now' }, { object: 'Math', property: 'random' }],
    },
  },
)
