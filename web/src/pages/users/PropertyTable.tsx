import type { AppUser } from '../../types.ts';

/** How a property value reads: text as it is, the other JSON values as JSON writes them. */
function valueText(value: AppUser['properties'][string]): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A user's properties as a key/value table, in the order identify first sent them: a long value
 * wraps in its cell instead of stretching a chip off the screen.
 */
export function PropertyTable({ properties }: { properties: AppUser['properties'] }) {
  const entries = Object.entries(properties);
  return (
    <section className="user-properties" aria-labelledby="user-properties-title">
      <h2 id="user-properties-title">Properties</h2>
      {entries.length === 0 ? (
        <p className="muted small">
          No properties yet: <code>POST /api/identify</code> sets them.
        </p>
      ) : (
        <table className="property-table" data-testid="user-properties">
          <thead>
            <tr>
              <th scope="col">Property</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td className={typeof value === 'string' ? undefined : 'mono'}>{valueText(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
