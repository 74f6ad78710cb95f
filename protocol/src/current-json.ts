/**
 * The `current.json` validator alone (issue 14): `@docforge/protocol/current-json` loads one
 * precompiled validator instead of the package index with its hundred, so a no-change
 * `docforge sync` and the build worker stay light. The same function object as the index's
 * `validateCurrentJson` (one module instance of `generated/validators/current.js`).
 */
import { validate_current } from './generated/validators/current.js';
import type { CurrentJson } from './generated/types/current.js';
import type { SchemaValidator } from './validator.js';

/** Validates one CurrentJson against schemas/v1/current.schema.json; after a false return, `.errors` says why. */
export const validateCurrentJson = validate_current as unknown as SchemaValidator<CurrentJson>;
