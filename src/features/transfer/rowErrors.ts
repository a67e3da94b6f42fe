import type { FastifySchemaValidationError } from 'fastify';
import { InvalidInput, ServiceError } from '../../lib/errors.ts';

/** `/projects/0/events/12/category` -> `projects[0].events[12].category`. */
function rowPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
};

function oneOf(types: string[]): string {
  const words = [...new Set(types)].map((type) => ARTICLE[type] ?? type);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? 'valid');
}

/**
 * Route-level schema error formatter for the import document: the reply names the row the way
 * the rule checks do (`projects[0].events[12].title must be a string`), so a person can find it
 * in a file of a hundred thousand rows whichever check caught it.
 */
export function formatImportSchemaError(errors: FastifySchemaValidationError[]): Error {
  const first = errors[0];
  if (!first) return new InvalidInput('The import document is invalid');
  const path = rowPath(first.instancePath);
  const subject = path || 'the request body';
  switch (first.keyword) {
    case 'required': {
      const field = String(first.params.missingProperty);
      return new InvalidInput(`${path ? `${path}.` : ''}${field} is required`);
    }
    case 'type':
    case 'anyOf': {
      // A union fails once per branch: gather every type that would have been accepted here.
      const types = errors
        .filter((error) => error.instancePath === first.instancePath && error.keyword === 'type')
        .flatMap((error) => [error.params.type].flat().map(String));
      return new InvalidInput(`${subject} must be ${oneOf(types)}`);
    }
    case 'const':
      return new InvalidInput(`${subject} must be ${JSON.stringify(first.params.allowedValue)}`);
    default:
      return new InvalidInput(`${subject} ${first.message ?? 'is invalid'}`);
  }
}

/** Runs a row's rule check; its complaint (`title is required`) is prefixed with the row's path. */
export function atRow<T>(path: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'invalid') throw new InvalidInput(`${path}.${error.message}`);
    throw error;
  }
}
