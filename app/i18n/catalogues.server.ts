// The server renders every locale, so it holds every catalogue from the start.
import { registerCatalogue } from './index.ts'
import de from './catalogues/de.ts'
import en from './catalogues/en.ts'
import es from './catalogues/es.ts'
import fr from './catalogues/fr.ts'
import pt from './catalogues/pt.ts'
import zh from './catalogues/zh.ts'

registerCatalogue('en', en)
registerCatalogue('es', es)
registerCatalogue('fr', fr)
registerCatalogue('de', de)
registerCatalogue('pt', pt)
registerCatalogue('zh', zh)
