/**
 * The `docforge.toml` validator alone (issue 29, item 4): `@docforge/project` checks a descriptor's
 * shape with it at run time, and this subpath loads one precompiled validator instead of the
 * package index with its hundred (as `./current-json` does for the no-change sync). The same
 * function object as the index's `validateDescriptorDocument`.
 */
import { validate_descriptor as validate } from './generated/validators/descriptor.js';
import type { DescriptorDocument } from './generated/types/descriptor.js';
import type { SchemaValidator } from './validator.js';

export type { DescriptorDocument };

/** Validates one DescriptorDocument against schemas/v1/descriptor.schema.json; after a false return, `.errors` says why. */
export const validateDescriptorDocument = validate as unknown as SchemaValidator<DescriptorDocument>;
