import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, MAX_PAGE, MAX_SCIM_BODY_BYTES, USER_SCHEMA } from './protocol.ts'

// The discovery resources of RFC 7644 section 4 (ServiceProviderConfig, ResourceTypes, Schemas), as
// this service supports SCIM: PATCH yes, bulk, sort, ETags and password changes no, filter `eq`
// on the listed attributes only.

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType'
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

export function serviceProviderConfig(origin: string) {
	return {
		schemas: [SPC_SCHEMA],
		documentationUri: `${origin}/admin/settings/scim`,
		patch: { supported: true },
		bulk: { supported: false, maxOperations: 0, maxPayloadSize: MAX_SCIM_BODY_BYTES },
		filter: { supported: true, maxResults: MAX_PAGE },
		changePassword: { supported: false },
		sort: { supported: false },
		etag: { supported: false },
		authenticationSchemes: [
			{
				type: 'oauthbearertoken',
				name: 'Bearer token',
				description: 'A token a tenant admin creates at /admin/settings/scim, sent as Authorization: Bearer <token>.',
				primary: true,
			},
		],
		meta: { resourceType: 'ServiceProviderConfig', location: `${origin}/scim/v2/ServiceProviderConfig` },
	}
}

export function resourceTypes(origin: string) {
	const type = (id: 'User' | 'Group', endpoint: string, schema: string, extensions: string[] = []) => ({
		schemas: [RT_SCHEMA],
		id,
		name: id,
		endpoint,
		schema,
		schemaExtensions: extensions.map((s) => ({ schema: s, required: false })),
		meta: { resourceType: 'ResourceType', location: `${origin}/scim/v2/ResourceTypes/${id}` },
	})
	return [type('User', '/Users', USER_SCHEMA, [ENTERPRISE_SCHEMA]), type('Group', '/Groups', GROUP_SCHEMA)]
}

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
	name,
	type: 'string',
	multiValued: false,
	required: false,
	caseExact: false,
	mutability: 'readWrite',
	returned: 'default',
	uniqueness: 'none',
	...extra,
})

export function schemas(origin: string) {
	const schema = (id: string, name: string, attributes: unknown[]) => ({
		schemas: [SCHEMA_SCHEMA],
		id,
		name,
		attributes,
		meta: { resourceType: 'Schema', location: `${origin}/scim/v2/Schemas/${id}` },
	})
	return [
		schema(USER_SCHEMA, 'User', [
			attribute('userName', { required: true, uniqueness: 'server' }),
			attribute('displayName'),
			attribute('name', {
				type: 'complex',
				subAttributes: [attribute('formatted'), attribute('givenName'), attribute('familyName')],
			}),
			attribute('emails', { type: 'complex', multiValued: true, mutability: 'readOnly' }),
			attribute('active', { type: 'boolean' }),
			attribute('externalId', { caseExact: true }),
		]),
		schema(GROUP_SCHEMA, 'Group', [
			attribute('displayName', { required: true, uniqueness: 'server' }),
			attribute('members', {
				type: 'complex',
				multiValued: true,
				subAttributes: [
					attribute('value', { mutability: 'immutable' }),
					attribute('display', { mutability: 'readOnly' }),
				],
			}),
			attribute('externalId', { caseExact: true }),
		]),
	]
}
