
BoutputJ(›	=d¢L¼kqÀ¼Îúí;ÅÚ»k%K»(½¼?I¼¬ŸR»iæ<