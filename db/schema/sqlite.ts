// The SQLite schema, one module per room's tables (db/schema/sqlite/): the same tables,
// columns, nullability and keys as db/schema/pg.ts. tests/integration/schema.test.ts compares the SQL
// shape, db/schema/parity.ts the row types (tsc fails when they drift). Only tables are exported
// here: db/client.ts and drizzle-kit read every export as the schema.
export { tenants, users } from './sqlite/core.ts'
export * from './sqlite/accounts.ts'
export * from './sqlite/learning.ts'
export * from './sqlite/certificates.ts'
export * from './sqlite/reminders.ts'
export * from './sqlite/platform.ts'
export * from './sqlite/integrations.ts'
export * from './sqlite/sso.ts'
