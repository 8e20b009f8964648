// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { coreBoundary } from './eslint/core-boundary.js'

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
    // Imports are checked by resolving them (orbitdraw/core-boundary): anything outside src/core, at any
    // depth of ../, is refused, as is any package not in its allow-list.
    files: ['src/core/**/*.ts'],
    plugins: { orbitdraw: { rules: { 'core-boundary': coreBoundary } } },
    rules: {
      'orbitdraw/core-boundary': 'error',
      'no-restricted-globals': ['error', 'fetch', 'setTimeout', 'setInterval', 'process', 'Buffer'],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now' }, { object: 'Math', property: 'random' }],
    },
  },
)
