import { isolationMatrix } from './isolation-matrix.ts'

// The tenant isolation matrix (every route × role × host) on SQLite; PostgreSQL: isolation.pg.test.ts.
isolationMatrix('sqlite')
