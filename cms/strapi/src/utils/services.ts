/**
 * Our services by uid, each with its own type. Strapi types every service as a bag of `any`
 * (`Core.Service`), so `strapi.service(uid)` alone would check no call to it.
 */
import type { Core } from '@strapi/strapi'
import type { EditorMigration } from '../api/authoring/services/editor-migration'
import type { EditorView } from '../api/authoring/services/editor-view'
import type { Guard } from '../api/authoring/services/guard'
import type { Lists } from '../api/authoring/services/lists'
import type { MediaScope } from '../api/authoring/services/media-scope'
import type { Provisioning } from '../api/authoring/services/provisioning'
import type { Slugs } from '../api/authoring/services/slugs'
import type { Tenants } from '../api/authoring/services/tenants'
import type { Answers } from '../api/content/services/answers'
import type { Assets } from '../api/content/services/assets'
import type { Documents } from '../api/content/services/documents'
import type { Revalidation } from '../api/content/services/revalidation'
import type { TestControls } from '../api/content/services/test-controls'

type Services = {
	'api::authoring.editor-migration': EditorMigration
	'api::authoring.editor-view': EditorView
	'api::authoring.guard': Guard
	'api::authoring.lists': Lists
	'api::authoring.media-scope': MediaScope
	'api::authoring.provisioning': Provisioning
	'api::authoring.slugs': Slugs
	'api::authoring.tenants': Tenants
	'api::content.answers': Answers
	'api::content.assets': Assets
	'api::content.documents': Documents
	'api::content.revalidation': Revalidation
	'api::content.test-controls': TestControls
}

export const service = <K extends keyof Services>(strapi: Core.Strapi, uid: K) => strapi.service(uid) as Services[K]
