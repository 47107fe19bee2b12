/** The soak (soak.ts) against the docs dialect of the service. */
import { describeSoak } from './soak.ts';

describeSoak('docs');
