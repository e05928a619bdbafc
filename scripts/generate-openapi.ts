// `npm run openapi`: writes openapi/openapi.yaml from the route contract.
import { writeFileSync } from 'node:fs'
import { generateOpenApiYaml } from '#app/platform/openapi.ts'

writeFileSync('openapi/openapi.yaml', generateOpenApiYaml())
console.log('wrote openapi/openapi.yaml')
