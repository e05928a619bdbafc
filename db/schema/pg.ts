// The PostgreSQL schema, one module per room's tables (db/schema/pg/): the same tables,
// columns, nullability and keys as db/schema/sqlite.ts. tests/integration/schema.test.ts compares the SQL
// shape, db/schema/parity.ts the row types (tsc fails when they drift). Only tables are exported
// here: db/client.ts and drizzle-kit read every export as the schema.
export { tenants, users } from './pg/core.ts'
export * from './pg/accounts.ts'
export * from './pg/learning.ts'
export * from './pg/certificates.ts'
export * from './pg/reminders.ts'
export * from './pg/platform.ts'
export * from './pg/integrations.ts'
export * from './pg/sso.ts'
