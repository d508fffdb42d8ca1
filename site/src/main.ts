// The one script every page loads: the header's menus, then any islands on the page.
import './styles.css';
import { initHeader } from './header';
import { hydrateIslands } from './islands';
import { showSpots } from './spots';

initHeader(document);
void hydrateIslands(document);
void showSpots(document);
