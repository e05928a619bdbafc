import { isolationMatrix } from './isolation-matrix.ts'

// The tenant isolation matrix on PostgreSQL (skipped without TEST_DATABASE_URL); SQLite: isolation.test.ts.
isolationMatrix('pg')
