/** The soak (soak.ts) against the friendly dialect of the service. */
import { describeSoak } from './soak.ts';

describeSoak('friendly');
