// en's title may not be empty; a translation's may (src/utils/required.ts).
import { requireInDefaultLocale } from '../../../../utils/required'

export default requireInDefaultLocale('title')
